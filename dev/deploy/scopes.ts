/**
 * `npm run scopes`: the OAuth scopes of the manifest the build writes, one a
 * line, as the OAuth consent screen and the Marketplace SDK take them (the
 * three lists must be the same). `-- --write` puts them into the scope block
 * of docs/deploy.md, which a test keeps equal to the manifest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtManifest } from '../../build';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const GUIDE = join(root, 'docs/deploy.md');
const BEGIN = '<!-- scopes: written by `npm run scopes -- --write` from the manifest the build writes -->';
const END = '<!-- /scopes -->';

/** The guide with its scope block holding `scopes`; throws when the guide has no block. */
export function withScopeBlock(guide: string, scopes: readonly string[]): string {
  const start = guide.indexOf(BEGIN);
  const end = guide.indexOf(END, start);
  if (start < 0 || end < 0) throw new Error(`docs/deploy.md has no scope block (${BEGIN} … ${END})`);
  const block = `${BEGIN}\n\n\`\`\`text\n${scopes.join('\n')}\n\`\`\`\n\n`;
  return guide.slice(0, start) + block + guide.slice(end);
}

export function manifestScopes(): string[] {
  return builtManifest().oauthScopes;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const scopes = manifestScopes();
  if (process.argv.includes('--write')) writeFileSync(GUIDE, withScopeBlock(readFileSync(GUIDE, 'utf8'), scopes));
  console.log(scopes.join('\n'));
}
