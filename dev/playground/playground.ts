/**
 * startPlayground(): the sandbox with demo organizations, the real bundle in
 * the emulator with the demo connection already saved, and the page served on
 * 127.0.0.1. Used by `npm start` (start.ts) and by the browser tests.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { DEFAULT_CODE_PATH, GasEmulator, type EmulatorOptions } from '../gas/runner';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../sandbox/harness';
import { loadAssets } from './assets';
import { createServer, listen } from './server';
import { Session } from './session';
import { LOCAL_TEST_SERVERS } from '../gas/allow-list';

export interface PlaygroundOptions {
  /** Port to try first (default 8080; 0 = any free port). A port that is taken falls back to a free one. */
  port?: number;
  /** Demo data size (default small). */
  size?: 'small' | 'medium';
  /** Seed of the demo data (default 1). */
  seed?: number;
  /** Which demo organization the preset connection uses (default 0, the first). */
  org?: number;
  /**
   * An accounting office of this many client companies in the sandbox (its office option), each with a
   * connection of the first user named after it: the Central do escritório has them to show. None by default.
   */
  office?: number;
  /** Skip the preset connection (a test of the empty state). */
  noConnection?: boolean;
  /** Virtual time the emulator starts at (default 2026-11-23 09:00 in São Paulo). */
  startAt?: Date;
  /**
   * The editors of the shared document, first the one using the page at the
   * start (default: the emulator's user and a colleague). Each gets a demo
   * connection of their own, to the next demo organization.
   */
  users?: string[];
  /** Extra emulator options (codePath, budgets...). */
  emulator?: EmulatorOptions;
  /** Where the sandbox comes from (default: a child process of its own); stop() stops it. */
  sandbox?: (options: SandboxOptions) => Promise<SandboxHandle>;
}

export interface Playground {
  /** http://127.0.0.1:PORT/ */
  url: string;
  port: number;
  emulator: GasEmulator;
  sandbox: SandboxHandle;
  session: Session;
  /** Makes the page redraw after a change made to the emulator directly (the page polls for it). */
  touch(): void;
  /** Name of the preset connection, or null. */
  connectionName: string | null;
  stop(): Promise<void>;
}

export const DEFAULT_START = new Date('2026-11-23T09:00:00-03:00');

export const COLLEAGUE = 'socia@example.com.br';

function presetConnection(emulator: GasEmulator, sandbox: SandboxHandle, org: number, user?: string): string {
  const name = `Demo — ${sandbox.orgs[org].name}`;
  const r = emulator.run('saveConnection', [{ name, baseUrl: sandbox.baseUrl, apiKey: sandbox.orgs[org].apiKey, isDefault: true }], { user }) as {
    ok: boolean;
    message?: string;
  };
  if (!r.ok) throw new Error(`playground: saveConnection refused the demo connection: ${r.message}`);
  return name;
}

/** The sandbox's demonstration organizations, before the office's companies. */
const DEMO_ORGS = 3;

/** A connection of `user` to one of the office's companies, named after it, as an accountant saves each client's key. */
function officeConnection(emulator: GasEmulator, sandbox: SandboxHandle, company: SandboxHandle['orgs'][number], user: string): void {
  const r = emulator.run('saveConnection', [{ name: company.name, baseUrl: sandbox.baseUrl, apiKey: company.apiKey }], { user }) as {
    ok: boolean;
    message?: string;
  };
  if (!r.ok) throw new Error(`playground: saveConnection refused ${company.name}: ${r.message}`);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const codePath = options.emulator?.codePath ?? DEFAULT_CODE_PATH;
  if (!options.emulator?.code && !existsSync(codePath)) throw new Error(`playground: ${codePath} is missing; run npm run build first`);
  const size = options.size ?? 'small';
  const org = options.org ?? 0;
  const [sandbox, assets] = await Promise.all([
    (options.sandbox ?? startSandbox)({ seed: options.seed ?? 1, size, ...(options.office ? { office: options.office } : {}) }),
    loadAssets(),
  ]);
  try {
    const emulator = new GasEmulator({ startAt: options.startAt ?? DEFAULT_START, urlFetchWhitelist: LOCAL_TEST_SERVERS, ...options.emulator });
    // The add-on is installed in this spreadsheet: opening it runs onOpen in LIMITED.
    const opened = emulator.open('LIMITED');
    if (opened.status !== 'ok') console.warn(`playground: onOpen failed: ${opened.error?.message}`);
    // Sheets always has an active cell.
    emulator.select(emulator.spreadsheet.activeSheet().name, 'A1');
    const users = options.users ?? [emulator.options.user ?? 'contador@example.com.br', COLLEAGUE];
    const connectionName = options.noConnection ? null : presetConnection(emulator, sandbox, org, users[0]);
    if (!options.noConnection) users.slice(1).forEach((user, i) => presetConnection(emulator, sandbox, (org + i + 1) % DEMO_ORGS, user));
    for (const company of sandbox.orgs.filter((o) => o.office)) officeConnection(emulator, sandbox, company, users[0]);
    const session = new Session(
      emulator,
      { org: sandbox.orgs[org].name, size, baseUrl: sandbox.baseUrl },
      users,
      sandbox.orgs.map((o) => ({ name: o.name, apiKey: o.apiKey })),
    );
    const server = createServer(session, assets);
    const port = await listen(server, options.port ?? 8080);
    let stopped: Promise<void> | null = null;
    return {
      url: `http://127.0.0.1:${port}/`,
      port,
      emulator,
      sandbox,
      session,
      connectionName,
      touch: () => void session.touch(),
      stop() {
        stopped ??= Promise.all([closeServer(server), sandbox.stop()]).then(() => undefined);
        return stopped;
      },
    };
  } catch (err) {
    await sandbox.stop();
    throw err;
  }
}
