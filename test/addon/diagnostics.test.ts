/**
 * Ajuda › Diagnóstico: the self-check for a real deployment, run here in the
 * emulator. Every row says what it observed; a verdict judges only what has a
 * right answer (a schedule with no trigger is FALHA, the document context of
 * the hourly run is reported as seen); the measured costs are written beside
 * the cost model's figures, and a platform slower than the model is an AVISO.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GasEmulator } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { COST_FIGURES } from '../../src/gas/cost-model';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 3, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

type Row = [string, string, string, number | string, number | string, number | string];

function diagnose(emu: GasEmulator): (start: string) => Row {
  emu.run('runDiagnostics');
  const [header, ...rows] = emu.values('Diagnóstico') as Row[];
  expect(header).toEqual(['Suposição', 'Observado', 'Veredito', 'Medido (ms)', 'Modelo otimista (ms)', 'Modelo pessimista (ms)']);
  // Every row says what it saw.
  for (const r of rows) expect(r[1]).not.toBe('');
  return (start) => {
    const found = rows.find((r) => r[0].startsWith(start));
    if (!found) throw new Error(`no row "${start}"`);
    return found;
  };
}

/** A report of this user's, scheduled hourly: the trigger is made when the schedule is saved. */
function scheduled(emu: GasEmulator): void {
  connect(emu, sb);
  importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes' });
  const id = (emu.run('listReports') as Rec[])[0].id as string;
  emu.run('setReportSchedule', [id, { kind: 'hourly' }, false]);
}

const userProperty = (emu: GasEmulator, key: string) => emu.withServices((s) => s.PropertiesService.getUserProperties().getProperty(key));
const setUserProperty = (emu: GasEmulator, key: string, value: string) =>
  emu.withServices((s) => {
    s.PropertiesService.getUserProperties().setProperty(key, value);
  });

describe('Diagnóstico', () => {
  it('is in the menu and writes assumption, observed and verdict for each check', () => {
    const emu = emulator();
    emu.open('LIMITED');
    expect(emu.menuItems()).toContainEqual({ path: ['Faturamento', 'Diagnóstico (ajuda)'], functionName: 'runDiagnostics' });
    scheduled(emu);
    emu.runDueTriggers(SP('2026-11-22T11:05:00'));

    const row = diagnose(emu);
    expect(row('Uma célula com formato de texto')[2]).toBe('OK');
    expect(row('Uma data gravada aparece no fuso')[2]).toBe('OK');
    expect(row('O que a última execução de hora em hora viu').slice(0, 3)).toMatchObject([
      expect.any(String),
      expect.stringMatching(/planilha ativa sim/),
      'INFO',
    ]);
    expect(row('Você tem um gatilho de hora em hora').slice(0, 3)).toMatchObject([
      expect.any(String),
      expect.stringMatching(/^1 gatilho\(s\); seus aqui: 1 relatório/),
      'OK',
    ]);
    // The sandbox is a local address, which the build allows for development.
    expect(row('A conexão "Demo"')[2]).toBe('OK');
    expect(row('Uso de hoje das cotas')[1]).toMatch(/chamadas/);
    expect(row('Uma chamada sem resposta')[2]).toBe('VERIFICAR');
    expect(row('O código que o pacote guarda como texto')[2]).toBe('OK');
    // The scratch cells it used are left empty.
    expect(
      emu
        .values('Diagnóstico', 'H1:Q100')
        .flat()
        .every((v) => v === ''),
    ).toBe(true);
  });

  it('says FALHA when the user owns a schedule here and has no trigger', () => {
    const emu = emulator();
    scheduled(emu);
    emu.withServices((s) => {
      for (const t of s.ScriptApp.getProjectTriggers()) s.ScriptApp.deleteTrigger(t);
    });
    const row = diagnose(emu);
    expect(row('Você tem um gatilho de hora em hora')).toEqual([
      expect.any(String),
      expect.stringMatching(/^0 gatilho\(s\); seus aqui: 1 relatório\(s\) agendado\(s\).*sem gatilho.*Relatórios/),
      'FALHA',
      '',
      '',
      '',
    ]);
  });

  it('reports the document context the hourly run saw without judging it: the add-on works without it', () => {
    const emu = emulator();
    const key = 'faturamento.diagnostico.execucao';
    scheduled(emu);
    emu.runDueTriggers(SP('2026-11-22T11:05:00'));
    const seen = JSON.parse(userProperty(emu, key)!);
    setUserProperty(emu, key, JSON.stringify({ ...seen, activeSpreadsheet: false, documentProperties: false, documentLock: false }));
    expect(diagnose(emu)('O que a última execução de hora em hora viu').slice(0, 3)).toMatchObject([
      expect.any(String),
      expect.stringMatching(/planilha ativa não, propriedades do documento não, bloqueio do documento não/),
      'INFO',
    ]);
  });

  it('names each connection outside the allow-list: FALHA when none is inside, AVISO when some are', () => {
    const emu = emulator();
    connect(emu, sb);
    let row = diagnose(emu)('As conexões estão na lista de endereços permitidos');
    expect(row[1]).toMatch(
      /^permitidos: https:\/\/api\.faturamento\.example\.com\.br; fora da lista: "Demo" \(http:\/\/127\.0\.0\.1:\d+, endereço local que o Google não alcança\)/,
    );
    expect(row[2]).toBe('FALHA');
    // A connection saved under a build whose list had its host.
    const listKey = 'faturamento.conexoes';
    const list = JSON.parse(userProperty(emu, listKey)!) as Rec[];
    setUserProperty(
      emu,
      listKey,
      JSON.stringify([...list, { ...list[0], id: 'c2', name: 'Matriz', isDefault: false, baseUrl: 'https://api.faturamento.example.com.br' }]),
    );
    row = diagnose(emu)('As conexões estão na lista de endereços permitidos');
    expect(row[1]).toMatch(/fora da lista: "Demo"/);
    expect(row[1]).not.toMatch(/Matriz/);
    expect(row[2]).toBe('AVISO');
  });

  it('times a setValues, a flush, an openById and a fetchAll of 10 on the platform and writes the figures beside the model’s', () => {
    const emu = emulator();
    connect(emu, sb);
    const row = diagnose(emu);
    const { optimistic: o, pessimistic: p } = COST_FIGURES;
    const write = row('Gravar 1.000 células com um setValues');
    expect(write.slice(2)).toEqual(['OK', expect.any(Number), o.spreadsheetCallMs + 1000 * o.cellWriteMs, p.spreadsheetCallMs + 1000 * p.cellWriteMs]);
    expect(write[3]).toBeGreaterThan(0);
    expect(row('SpreadsheetApp.flush()').slice(2)).toEqual(['OK', expect.any(Number), o.spreadsheetCallMs + o.flushMs, p.spreadsheetCallMs + p.flushMs]);
    expect(row('Abrir uma planilha pelo id').slice(2)).toEqual(['OK', expect.any(Number), o.spreadsheetCallMs, p.spreadsheetCallMs]);
    expect(row('Um pedido ao serviço permitido').slice(0, 3)).toMatchObject([expect.any(String), expect.stringContaining(sb.baseUrl), 'INFO']);
    const all = row('10 pedidos de uma vez');
    expect(all.slice(2)).toEqual(['OK', expect.any(Number), o.urlFetchCallMs, p.urlFetchCallMs]);
    expect(all[1]).toMatch(/: 1,\d × o tempo de um pedido sozinho \([^)]+\); saíram juntos/);
  });

  it('says AVISO where the platform is slower than the pessimistic model, or fetchAll sends one request at a time', () => {
    const emu = emulator({ costs: { flushMs: 2_000 }, fetchAllConcurrency: 1 });
    connect(emu, sb);
    const row = diagnose(emu);
    expect(row('SpreadsheetApp.flush()').slice(0, 3)).toMatchObject([expect.any(String), expect.stringMatching(/acima do modelo pessimista/), 'AVISO']);
    expect(row('10 pedidos de uma vez').slice(0, 3)).toMatchObject([
      expect.any(String),
      expect.stringMatching(/: (9|10),\d × o tempo de um pedido sozinho \([^)]+\); não saíram juntos/),
      'AVISO',
    ]);
    expect(row('Gravar 1.000 células')[2]).toBe('OK');
  });
});
