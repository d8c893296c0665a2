import { fork, type ChildProcess } from 'node:child_process';
import { LOCAL_TEST_SERVERS } from '../../dev/gas/allow-list';
import { GasEmulator, type EmulatorOptions } from '../../dev/gas/runner';

/** An emulator running a small fixture script instead of the bundle. */
export function fixture(code: string, options: EmulatorOptions = {}): GasEmulator {
  return new GasEmulator({ code, countRealTime: false, urlFetchWhitelist: LOCAL_TEST_SERVERS, ...options });
}

/** The echo server of the HTTP tests, in its own process (our thread blocks during a fetch). */
export async function startEchoServer(): Promise<{ base: string; stop: () => void }> {
  const child: ChildProcess = fork(new URL('../http/echo-server.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
