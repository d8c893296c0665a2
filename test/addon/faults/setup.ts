/** What the scenario tests of Google's faults share: a sandbox per file, reset before each test, and a user's connection to it. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { GasEmulator } from '../../../dev/gas/runner';
import { type ResetOptions, type SandboxHandle, borrowSandbox } from '../../../dev/sandbox/harness';
import { ok } from '../helpers';

/** The file's sandbox (a getter: it is borrowed before the first test), reset with `reset` before each test. */
export function sandbox(seed: number, reset: ResetOptions = {}): () => SandboxHandle {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await borrowSandbox({ seed, size: 'small' });
  });
  afterAll(async () => {
    await sb?.stop();
  });
  beforeEach(async () => {
    await sb.reset(reset);
  });
  return () => sb;
}

/** The connection "Empresa" of the emulator's default user to the sandbox's first organization. */
export function connectEmpresa(emu: GasEmulator, sb: SandboxHandle): void {
  ok(emu.run('saveConnection', [{ name: 'Empresa', baseUrl: sb.baseUrl, apiKey: sb.orgs[0].apiKey, isDefault: true }]));
}
