/**
 * Entry point of the child process started by harness.ts. Options arrive in
 * SANDBOX_OPTIONS; the chosen port goes back over IPC.
 */
import { publicOrg } from './orgs.js';
import { createSandboxServer } from './server.js';
import type { SandboxOptions } from './types.js';

export interface ChildReady {
  type: 'ready';
  port: number;
  orgs: ReturnType<typeof publicOrg>[];
}
export interface ChildFailed {
  type: 'failed';
  error: string;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.env.SANDBOX_OPTIONS ?? '{}') as SandboxOptions;
  const sandbox = createSandboxServer(options);
  const port = await sandbox.listen(0);
  const stop = () => void sandbox.close().finally(() => process.exit(0));
  // The parent went away (even by crashing): nothing is left to serve.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: unknown) => {
    if ((m as { type?: string })?.type === 'stop') stop();
  });
  process.on('SIGTERM', stop);
  const ready: ChildReady = { type: 'ready', port, orgs: sandbox.state.defs.map(publicOrg) };
  process.send?.(ready);
}

main().catch((e: unknown) => {
  const failed: ChildFailed = { type: 'failed', error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  process.send?.(failed);
  process.exit(1);
});
