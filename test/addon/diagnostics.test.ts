/**
 * Ajuda › Diagnóstico: the self-check for a real deployment, run here in the
 * emulator, where every assumption it checks holds by construction, so each
 * verdict must come out OK (or VERIFICAR for what it cannot provoke).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import type { Rec } from '../bulk/fixtures';
import { connect, emulator, importAll, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 3, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

describe('Diagnóstico', () => {
  it('is in the menu and writes assumption, observed and verdict for each check', () => {
    const emu = emulator();
    emu.open('LIMITED');
    expect(emu.menuItems()).toContainEqual({ path: ['Faturamento', 'Diagnóstico (ajuda)'], functionName: 'runDiagnostics' });
    connect(emu, sb);
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
    const id = (emu.run('listReports') as Rec[])[0].id as string;
    emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
    emu.runDueTriggers(SP('2026-11-22T11:05:00'));

    emu.run('runDiagnostics');
    const [header, ...rows] = emu.values('Diagnóstico') as string[][];
    expect(header).toEqual(['Suposição', 'Observado', 'Veredito']);
    const verdict = (start: string) => rows.find((r) => r[0].startsWith(start));
    expect(verdict('Uma célula com formato de texto')?.[2]).toBe('OK');
    expect(verdict('Uma data gravada aparece no fuso')?.[2]).toBe('OK');
    expect(verdict('A execução de hora em hora vê')).toMatchObject([expect.any(String), expect.stringMatching(/planilha ativa sim/), 'OK']);
    // The sandbox is a local address, which the build allows for development.
    expect(verdict('A conexão "Demo"')?.[2]).toBe('OK');
    expect(verdict('Uso de hoje das cotas')?.[1]).toMatch(/chamadas/);
    expect(verdict('Um só gatilho')?.[2]).toBe('OK');
    expect(verdict('Uma chamada sem resposta')?.[2]).toBe('VERIFICAR');
    expect(verdict('O código que o pacote guarda como texto')?.[2]).toBe('OK');
    // The scratch cells it used are left empty.
    expect(emu.values('Diagnóstico', 'E1:F1')).toEqual([['', '']]);
  });
});
