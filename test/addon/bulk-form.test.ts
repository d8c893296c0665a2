/** The bulk sidebar's defaults, through the real bundle. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { connect, emulator, importAll } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 4, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

describe('the bulk form', () => {
  it('on a pulled Faturas sheet proposes NFS-e emission for the selected rows only', () => {
    const emu = emulator();
    connect(emu, sb);
    importAll(emu, { listing: 'faturas', sheetName: 'Faturas', filters: {} });
    emu.select('Faturas', 'A3:B4');
    expect(emu.run('getBulkForm')).toMatchObject({ guessed: 'emitirNfse', suggestSelected: true, activeSheet: 'Faturas' });
  });

  it('refuses in Portuguese an operation or a listing named after one of Object’s members, as a crafted call could send', () => {
    const emu = emulator();
    connect(emu, sb);
    expect(emu.run('createBulkTemplate', ['toString'])).toEqual({ ok: false, message: 'Escolha a operação do modelo.' });
    expect(emu.run('startImportRun', [{ connection: 'Demo', listing: 'constructor', sheetName: 'X' }])).toMatchObject({
      ok: false,
      field: 'listing',
      message: 'Escolha o que importar.',
    });
    expect(emu.sheetNames()).not.toContain('X');
  });

  it('on an emission template sheet proposes all rows', () => {
    const emu = emulator();
    connect(emu, sb);
    const created = emu.run('createBulkTemplate', ['emitirNfse']) as Rec;
    expect(created.ok).toBe(true);
    emu.select(created.value.sheetName, 'A2');
    expect(emu.run('getBulkForm')).toMatchObject({ guessed: 'emitirNfse', suggestSelected: false });
  });
});
