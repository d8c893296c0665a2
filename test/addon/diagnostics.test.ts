/**
 * Ajuda › Diagnóstico: the self-check for a real deployment, run here in the
 * emulator. Every row says what it observed; a verdict judges only what has a
 * right answer (a schedule with no trigger is FALHA, the document context of
 * the hourly run is reported as seen); the measured costs are written beside
 * the cost model's figures, and a platform slower than the model is an AVISO.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_MODELS } from '../../dev/gas/clock';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator, RunOptions } from '../../dev/gas/runner';
import { type SandboxHandle, borrowSandbox } from '../../dev/sandbox/harness';
import { DISPATCHERS_PER_OWNER } from '../../src/core/hourly/dispatch';
import { COST_FIGURES } from '../../src/gas/cost-model';
import type { Rec } from '../core/bulk/fixtures';
import { connect, emulator, importAll, ok, SP } from './helpers';

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 3, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});

type Row = [string, string, string, number | string, number | string, number | string];

function diagnose(emu: GasEmulator, opts: RunOptions = {}): (start: string) => Row {
  emu.run('runDiagnostics', [], opts);
  const [header, ...rows] = emu.values('Diagnóstico', undefined, opts.documentId) as Row[];
  expect(header).toEqual(['Suposição', 'Observado', 'Veredito', 'Medido (ms)', 'Modelo otimista (ms)', 'Modelo pessimista (ms)']);
  // Every row says what it saw.
  for (const r of rows) expect(r[1]).not.toBe('');
  return (start) => {
    const found = rows.find((r) => r[0].startsWith(start));
    if (!found) throw new Error(`no row "${start}"`);
    return found;
  };
}

/** A report of this user's, scheduled (hourly unless said), in the document `opts` names: the trigger is made when the schedule is saved. */
function scheduled(emu: GasEmulator, schedule: Rec = { kind: 'hourly' }, opts: RunOptions = {}, name = 'Clientes'): void {
  importAll(emu, { listing: 'clientes', sheetName: name, name }, opts);
  const id = (emu.run('listReports', [], opts) as Rec[]).find((r) => r.name === name)?.id as string;
  ok(emu.run('setReportSchedule', [id, schedule, false], opts));
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
    connect(emu, sb);
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
    connect(emu, sb);
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
    connect(emu, sb);
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
    // The active document is at hand already: only another one tells what opening by id costs, and there is none here.
    expect(row('Abrir outra planilha sua pelo id').slice(1, 3)).toEqual([
      expect.stringMatching(/^não medido: você não tem trabalho em outra planilha/),
      'VERIFICAR',
    ]);
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

describe('Diagnóstico: what the model leaves to a real install', () => {
  const STARTUP = 'A partida de uma execução';
  const IDLE = 'Uma execução de hora em hora sem nada a fazer';

  /** A daily schedule at 15h, and one hourly run before it: a run with nothing due. */
  function idleHour(emu: GasEmulator): void {
    scheduled(emu, { kind: 'daily', hour: 15 });
    // Where in its second the trigger fires follows from when the schedule was saved, to the millisecond: half past here,
    // so what the event's whole seconds hide is the same whatever the steps before cost.
    for (const t of emu.triggers.triggers) t.nextRun += 500 - (t.nextRun % 1000);
    const [run] = emu.runDueTriggers(SP('2026-11-22T11:59:00'));
    expect(run.counters.urlFetchRequests).toBe(0);
  }

  it('takes the start-up from the last hourly run with nothing due: from its trigger’s firing (to the second) to the first line, beside the model', () => {
    const emu = emulator();
    const none = diagnose(emu);
    expect(none(STARTUP).slice(1, 3)).toEqual([expect.stringMatching(/^não medido: nenhuma execução de hora em hora sem nada a fazer/), 'VERIFICAR']);
    connect(emu, sb);
    idleHour(emu);
    const row = diagnose(emu);
    const startup = row(STARTUP);
    const { startupMs } = COST_MODELS.optimistic;
    // The event tells the firing in whole seconds: what is read is the start-up and up to a second more.
    expect(startup[3]).toBeGreaterThanOrEqual(startupMs);
    expect(startup[3]).toBeLessThan(startupMs + 1000);
    expect(startup.slice(1)).toEqual([
      expect.stringMatching(/^entre \d+ ms e \d+ ms .*; dentro do modelo; medida na execução de 22\/11\/2026 11:0\d$/),
      'OK',
      startup[3],
      COST_FIGURES.optimistic.startupMs,
      COST_FIGURES.pessimistic.startupMs,
    ]);
    const idle = row(IDLE);
    expect(idle[2]).toBe('INFO');
    const ms = Number(/^(\d+(?:,\d)?) ms/.exec(idle[1])?.[1].replace(',', '.'));
    expect(ms).toBeGreaterThan(Number(startup[3]));
    expect(idle[1]).toMatch(/a partida incluída/);
  });

  it('judges the start-up by what it can have been: INFO when the second it is known to may pass the model, AVISO when even its least does', () => {
    for (const [startupMs, verdict, text] of [
      [COST_MODELS.pessimistic.startupMs, 'INFO', /pode passar do modelo pessimista \(1000 ms\)/],
      [2_500, 'AVISO', /acima do modelo pessimista \(1000 ms\)/],
    ] as const) {
      const emu = emulator({ costs: { startupMs } });
      connect(emu, sb);
      idleHour(emu);
      const row = diagnose(emu)(STARTUP);
      expect(row[3]).toBeGreaterThan(1000);
      expect(row.slice(1, 3)).toEqual([expect.stringMatching(text), verdict]);
    }
  });

  it('opens another of the user’s spreadsheets by id and reads it, and writes the time beside the model', () => {
    const cliente = spreadsheetId('diagnostico-cliente');
    for (const [costs, verdict] of [
      [{}, 'OK'],
      [{ openByIdMs: 5_000 }, 'AVISO'],
    ] as const) {
      const emu = emulator({ costs });
      connect(emu, sb);
      emu.addSpreadsheet({ id: cliente, name: 'Cliente' });
      scheduled(emu, { kind: 'daily', hour: 15 }, { documentId: cliente });
      const row = diagnose(emu)('Abrir outra planilha sua pelo id');
      const { optimistic: o, pessimistic: p } = COST_FIGURES;
      expect(row.slice(1)).toEqual([
        expect.stringMatching(/^\d+(,\d)? ms: openById \d+(,\d)? ms, primeira leitura \d+(,\d)? ms/),
        verdict,
        expect.any(Number),
        o.openByIdMs + 4 * o.spreadsheetCallMs,
        p.openByIdMs + 4 * p.spreadsheetCallMs,
      ]);
      expect(row[3]).toBeGreaterThanOrEqual('openByIdMs' in costs ? costs.openByIdMs : COST_MODELS.optimistic.openByIdMs);
    }
  });

  it('says which kind of account this is, how it knows, and plans with that account’s quotas', () => {
    const ACCOUNT = 'O tipo da sua conta Google';
    const TODAY = 'Uso de hoje das cotas diárias';
    // An address of its own domain and a consumer account's e-mail quota: nothing tells, the smaller figures are assumed.
    const connected = (options: Parameters<typeof emulator>[0] = {}) => {
      const emu = emulator(options);
      connect(emu, sb);
      return emu;
    };
    let row = diagnose(connected());
    expect(row(ACCOUNT).slice(1, 3)).toEqual([
      expect.stringMatching(
        /^conta pessoal \(nada o diz .*\): 90 min de gatilhos, 20\.000 chamadas .*50\.000 leituras .*"conta": "workspace" em addon\.config\.json/,
      ),
      'VERIFICAR',
    ]);
    expect(row(TODAY)[1]).toMatch(/de 20\.000 chamadas; 0 de 90 min de gatilhos$/);
    row = diagnose(connected({ user: 'contador@gmail.com' }));
    expect(row(ACCOUNT).slice(1, 3)).toEqual([expect.stringMatching(/^conta pessoal \(endereço …@gmail\.com\): 90 min de gatilhos/), 'INFO']);
    // A Workspace account may e-mail 1,500 recipients a day, a consumer one 100.
    row = diagnose(connected({ account: 'workspace' }));
    expect(row(ACCOUNT).slice(1, 3)).toEqual([
      'conta Google Workspace (cota de e-mail de hoje com 1.500 destinatários (uma conta pessoal tem 100)): 360 min de gatilhos, 100.000 chamadas ao serviço (UrlFetch), 500.000 leituras e gravações de propriedades por dia',
      'INFO',
    ]);
    expect(row(TODAY)[1]).toMatch(/de 100\.000 chamadas; 0 de 360 min de gatilhos$/);
  });

  it('says no FALHA for a document past the owner’s few triggers: the runs of the owner’s other documents serve it through the agenda', () => {
    const emu = emulator();
    connect(emu, sb);
    const ids = Array.from({ length: DISPATCHERS_PER_OWNER + 1 }, (_, i) => spreadsheetId(`limite-${i}`));
    for (const id of ids) {
      emu.addSpreadsheet({ id, name: id });
      scheduled(emu, { kind: 'daily', hour: 15 }, { documentId: id });
    }
    const withTrigger = new Set(emu.triggers.triggers.map((t) => t.documentId));
    const stranded = ids.find((id) => !withTrigger.has(id)) as string;
    expect(diagnose(emu, { documentId: stranded })('Você tem um gatilho de hora em hora').slice(1, 3)).toEqual([
      expect.stringMatching(
        /^0 gatilho\(s\); seus aqui: 1 relatório\(s\) agendado\(s\), 0 execução\(ões\) inacabada\(s\): sem gatilho próprio, pois o complemento mantém 4 por pessoa, que atendem todas as suas planilhas; as execuções de hora em hora das suas outras planilhas \(4 gatilho\(s\)\) atendem esta/,
      ),
      'OK',
    ]);
    // Below those a document without its own trigger is still served, but should have one: AVISO.
    emu.withServices((s) => {
      for (const t of s.ScriptApp.getUserTriggers(s.SpreadsheetApp.openById(ids[0]))) s.ScriptApp.deleteTrigger(t);
    });
    expect(diagnose(emu, { documentId: ids[0] })('Você tem um gatilho de hora em hora').slice(1, 3)).toEqual([
      expect.stringMatching(
        /sem gatilho próprio; as execuções de hora em hora das suas outras planilhas \(3 gatilho\(s\)\) atendem esta .*salve o agendamento de novo$/,
      ),
      'AVISO',
    ]);
  });
});
