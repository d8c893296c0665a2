/**
 * The manifest's urlFetchWhitelist, with Google's matching rules
 * (developers.google.com/apps-script/manifest/allowlist-url): a prefix is an
 * https URL with a full domain and a non-empty path; a leading "*." matches
 * subdomains; a URL matches when it equals the prefix or is its child
 * (https://a.com/foo matches /foo, /foo/, /foo/bar, /foo?x, /foo#x, not
 * /foobar); hosts compare without case, paths with case.
 *
 * One deviation, for local test servers only: a prefix may be http:// and,
 * then, without a port it matches any port of that host.
 */

/** The local servers tests, the bench and the playground run (sandbox, echo server): the one place they are allowed. */
export const LOCAL_TEST_SERVERS = ['http://127.0.0.1/', 'http://localhost/'];

interface Parsed {
  scheme: string;
  host: string;
  port: string;
  path: string;
}

function parse(url: string): Parsed | null {
  const m = /^(https?):\/\/([^/?#:]+)(?::(\d+))?([^?#]*)([?#].*)?$/i.exec(url);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  return { scheme, host: m[2].toLowerCase(), port: m[3] ?? '', path: m[4] || '' };
}

/** Why Google would refuse `prefix` in the manifest, or null. */
export function prefixProblem(prefix: string): string | null {
  const p = parse(prefix);
  if (!p) return 'not a valid URL';
  if (p.scheme !== 'https') return 'must use https://';
  if (!p.host.replace(/^\*\./, '').includes('.')) return 'must have a full domain';
  if (p.path === '') return 'must have a non-empty path (end the domain with "/")';
  return null;
}

function hostMatches(prefixHost: string, host: string): boolean {
  if (prefixHost.startsWith('*.')) return host.endsWith(prefixHost.slice(1));
  return prefixHost === host;
}

function pathMatches(prefixPath: string, rest: string): boolean {
  if (!rest.startsWith(prefixPath)) return false;
  if (rest.length === prefixPath.length || prefixPath.endsWith('/')) return true;
  return '/?#'.includes(rest[prefixPath.length]);
}

export function allowed(url: string, prefixes: readonly string[]): boolean {
  const u = parse(url);
  if (!u) return false;
  const afterHost = url.replace(/^[a-z]+:\/\/[^/?#]+/i, '');
  return prefixes.some((raw) => {
    const p = parse(raw);
    if (!p || p.scheme !== u.scheme || !hostMatches(p.host, u.host)) return false;
    const anyPort = p.scheme === 'http' && p.port === '';
    if (!anyPort && p.port !== u.port) return false;
    return pathMatches(p.path || '/', afterHost.startsWith('/') ? afterHost : `/${afterHost}`);
  });
}
