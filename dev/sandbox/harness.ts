/**
 * Starts the sandbox in a child process for tests and tools. Tests block their
 * own thread with synchronous HTTP, so the server must never share it.
 * Control calls open a fresh connection each (agent: false): pooled sockets go
 * stale while the parent's thread is blocked.
 *
 * borrowSandbox() hands a test file a sandbox that an earlier file of the same
 * process gave back, restarted as if new with the file's options; a child
 * process starts in about a second, a restart in milliseconds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildFailed, ChildReady } from './child.js';
import type {
  ConfigPatch,
  DumpResource,
  OrgInfo,
  RequestLogEntry,
  RequestLogFilter,
  ResetOptions,
  SandboxConfig,
  SandboxOptions,
  TouchRequest,
  TouchResult,
} from './types.js';

export type {
  ConfigPatch,
  DumpResource,
  EmissionShape,
  FaultMatch,
  FaultRule,
  ListingName,
  OrgInfo,
  PagingStyle,
  RequestLogEntry,
  RequestLogFilter,
  RequestOutcome,
  ResetOptions,
  SandboxConfig,
  SandboxOptions,
  SandboxSize,
  SizeCounts,
  SizeName,
  SubscriptionListShape,
  DuplicateIntegrationIdPolicy,
  OfficeOptions,
  OfficeStatus,
  TouchRequest,
  TouchResult,
} from './types.js';

export interface StartSandboxOptions extends SandboxOptions {
  /** How long to wait for the child to listen. Default 30 000 ms. */
  startupTimeoutMs?: number;
}

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:PORT; API paths start with /v2. */
  baseUrl: string;
  orgs: OrgInfo[];
  /** Merges the patch into the running configuration and returns the result. */
  configure(patch: ConfigPatch): Promise<SandboxConfig>;
  requestLog(filter?: RequestLogFilter): Promise<RequestLogEntry[]>;
  clearLog(): Promise<void>;
  /** Regenerates the data (seed/size default to the start options), restores the start configuration, clears the log. */
  reset(options?: ResetOptions): Promise<void>;
  /** Every record of one organization (by name or key) and resource, hidden '_' columns included. */
  dump<T = Record<string, unknown>>(orgApiKeyOrName: string, resource: DumpResource): Promise<T[]>;
  /** Changes an office company's month (its invoice, charge or note), as its people would: see office.ts. */
  touch(change: TouchRequest): Promise<TouchResult>;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous by nature: 'exit' handlers cannot wait, but kill() is immediate.
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

function control<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { method, agent: false, headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new Error(`sandbox control ${method} ${path}: not JSON: ${text.slice(0, 200)}`));
          }
          if (res.statusCode !== 200) return reject(new Error(`sandbox control ${method} ${path}: ${res.statusCode} ${text.slice(0, 500)}`));
          resolve(parsed as T);
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error(`sandbox control ${method} ${path}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const { startupTimeoutMs = 30_000, ...sandboxOptions } = options;
  const childPath = fileURLToPath(new URL('./child.ts', import.meta.url));
  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = fork(childPath, [], {
    execArgv: ['--import', tsxLoader],
    env: { ...process.env, SANDBOX_OPTIONS: JSON.stringify(sandboxOptions) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  installExitHook();
  child.once('exit', () => live.delete(child));

  const ready = await new Promise<ChildReady>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox did not start within ${startupTimeoutMs} ms`));
    }, startupTimeoutMs);
    child.on('message', (m: ChildReady | ChildFailed) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m);
      } else if (m.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`sandbox failed to start: ${m.error}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited before starting (code ${code}, signal ${signal})`));
    });
  });

  const baseUrl = `http://127.0.0.1:${ready.port}`;
  let stopped: Promise<void> | null = null;
  return {
    baseUrl,
    orgs: ready.orgs,
    configure: (patch) => control<SandboxConfig>(baseUrl, 'POST', '/__sandbox/config', patch),
    async requestLog(filter = {}) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(filter)) if (v !== undefined) p.set(k, String(v));
      const r = await control<{ entries: RequestLogEntry[] }>(baseUrl, 'GET', `/__sandbox/log?${p}`);
      return r.entries;
    },
    async clearLog() {
      await control(baseUrl, 'DELETE', '/__sandbox/log');
    },
    async reset(opts = {}) {
      await control(baseUrl, 'POST', '/__sandbox/reset', opts);
    },
    async dump<T>(org: string, resource: DumpResource) {
      const r = await control<{ data: T[] }>(baseUrl, 'GET', `/__sandbox/dump/${encodeURIComponent(org)}/${resource}`);
      return r.data;
    },
    touch: (change) => control<TouchResult>(baseUrl, 'POST', '/__sandbox/touch', change),
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => {
          clearTimeout(timer);
          live.delete(child);
          resolve();
        });
        if (child.connected) child.send({ type: 'stop' });
        else child.kill('SIGTERM');
      });
      return stopped;
    },
  };
}

/** Sandboxes given back by the files that borrowed them, ready for the next one. */
const idle: SandboxHandle[] = [];
let endsOnSigterm = false;

/**
 * A sandbox as if just started with `options`: one given back earlier in this
 * process and restarted, or a new one. Its stop() gives it back; the child ends
 * with the process.
 */
export async function borrowSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  if (!endsOnSigterm) {
    endsOnSigterm = true;
    // Borrowed sandboxes outlive the files: a process told to stop (a test runner ending its worker) exits
    // through the exit hook, which kills them, rather than leave them to notice the parent has gone.
    process.once('SIGTERM', () => process.exit(143));
  }
  let sb: SandboxHandle | undefined;
  // The organizations as the restart made them: the office option changes them.
  let orgs: OrgInfo[] | undefined;
  while ((sb = idle.pop())) {
    orgs = await control<{ orgs: OrgInfo[] }>(sb.baseUrl, 'POST', '/__sandbox/restart', options).then(
      (r) => r.orgs,
      () => undefined,
    );
    if (orgs) break;
    await sb.stop();
  }
  sb ??= await startSandbox(options);
  const own = sb;
  let givenBack = false;
  return {
    ...own,
    orgs: orgs ?? own.orgs,
    async stop() {
      if (givenBack) return;
      givenBack = true;
      idle.push(own);
    },
  };
}
