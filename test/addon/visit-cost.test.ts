/**
 * What one visit of the hourly run costs besides its work: the owner's
 * properties read once while their lock is held, and the owner's triggers
 * listed once a run rather than at every visit, with the triggers past the
 * owner's few retired all the same.
 */
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { spreadsheetId } from '../../dev/gas/office';
import type { GasEmulator } from '../../dev/gas/runner';
import { DISPATCHERS_PER_OWNER } from '../../src/core/hourly/dispatch';
import type { Rec } from '../core/bulk/fixtures';
import { emulator, importAll, ok, SP, sharedSandbox } from './helpers';

const sb = sharedSandbox({ seed: 29, size: 'small' }, { size: { faturas: 10, clientes: 12, cobrancas: 5, transacoes: 5, assinaturas: 5 } });

const ANA = 'ana@escritorio.com.br';
const cliente = (n: number) => spreadsheetId(`visita-${n}`);

/** Ana's office: `documents` client spreadsheets, each with an hourly report. */
function office(documents: number): GasEmulator {
  const emu = emulator({ startAt: SP('2026-11-22T10:00:00'), user: ANA });
  ok(emu.run('saveConnection', [{ name: 'Empresa', baseUrl: sb().baseUrl, apiKey: sb().orgs[0].apiKey, isDefault: true }]));
  for (let n = 0; n < documents; n++) {
    const id = cliente(n);
    emu.addSpreadsheet({ id, name: `Cliente ${n}` });
    importAll(emu, { listing: 'clientes', sheetName: 'Clientes', name: 'Clientes', connection: 'Empresa' }, { documentId: id });
    const report = (emu.run('listReports', [], { documentId: id }) as Rec[])[0];
    ok(emu.run('setReportSchedule', [report.id, { kind: 'hourly' }, false], { documentId: id }));
  }
  return emu;
}

/** Each of the first `documents` spreadsheets had its scheduled run. */
function allServed(emu: GasEmulator, documents: number): void {
  for (let n = 0; n < documents; n++) {
    const [report] = emu.run('listReports', [], { documentId: cliente(n) }) as Rec[];
    expect(report.lastRun).toMatchObject({ origin: 'agendado', result: 'ok' });
  }
}

/** Per visit (a document opened by id, up to the release of the owner's lock), the calls `counted` picks. */
function perVisit(counted: (c: ServiceCall) => string | null): { onServiceCall: (c: ServiceCall) => void; visits: () => string[][] } {
  const visits: string[][] = [];
  const open = new Map<unknown, string[]>();
  return {
    onServiceCall(c) {
      if (c.object === 'SpreadsheetApp' && c.method === 'openById') open.set(c.execution, []);
      const visit = open.get(c.execution);
      if (!visit) return;
      const name = counted(c);
      if (name) visit.push(name);
      if (c.object === 'Lock' && c.method === 'releaseLock') {
        visits.push(visit);
        open.delete(c.execution);
      }
    },
    visits: () => visits,
  };
}

describe('the fixed cost of a visit', () => {
  it('reads the owner’s properties once, however many of them the visit looks at', () => {
    const emu = office(3);
    const reads = perVisit((c) => (c.object === 'Properties' && /^get/.test(c.method) ? `${c.method}(${String(c.args[0] ?? '')})` : null));
    emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false, onServiceCall: reads.onServiceCall });
    allServed(emu, 3);
    expect(reads.visits().length).toBeGreaterThanOrEqual(3);
    for (const visit of reads.visits()) expect(visit).toEqual(['getProperties()']);
  });

  it('writes the agenda’s entry and the Central’s index of the document in one call', () => {
    const emu = office(2);
    const writes = perVisit((c) => {
      if (c.object !== 'Properties' || !/^(set|delete)/.test(c.method)) return null;
      const keys = c.method === 'setProperties' ? Object.keys(c.args[0] as Rec) : [String(c.args[0])];
      const ours = keys.filter((k) => /^faturamento\.(agenda|trabalho)/.test(k)).sort();
      return ours.length ? `${c.method}(${ours.join(',')})` : null;
    });
    emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false, onServiceCall: writes.onServiceCall });
    allServed(emu, 2);
    // A visit that changed nothing of either (a document served meanwhile by another run) writes neither.
    const together = ['setProperties(faturamento.agenda,faturamento.trabalho)'];
    for (const visit of writes.visits()) expect(visit.length === 0 ? together : visit).toEqual(together);
    expect(writes.visits().filter((v) => v.length > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('asks the document it opened by id nothing it knows (its id), and signs without a round trip for the base64', () => {
    const emu = office(2);
    const asked = perVisit((c) =>
      `${c.object}.${c.method}`.match(/^(Spreadsheet\.getId|Utilities\.base64Encode|Utilities\.computeHmacSha256Signature)$/) ? c.method : null,
    );
    emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false, onServiceCall: asked.onServiceCall });
    allServed(emu, 2);
    expect(asked.visits().length).toBeGreaterThanOrEqual(2);
    // The signatures are still checked: each with its HMAC alone.
    for (const visit of asked.visits()) expect(new Set(visit)).toEqual(new Set(['computeHmacSha256Signature']));
  });

  it('lists the owner’s triggers once a run, not at each visit, and a run leaves the owner no more than their few', () => {
    const emu = office(DISPATCHERS_PER_OWNER + 2);
    // Triggers of earlier versions past the owner's few, in documents with nothing due: no visit opens them.
    const planted = ['zz-1', 'zz-2'].map((id, i) => {
      emu.triggers.triggers.push({ ...emu.triggers.triggers[0], id, documentId: spreadsheetId(`antiga-${i}`) });
      return id;
    });
    const listings: string[] = [];
    const onServiceCall = (c: ServiceCall) => {
      if (c.object === 'ScriptApp' && /Triggers$/.test(c.method)) listings.push(`${c.execution.id}:${c.method}`);
    };
    for (const run of emu.runDueTriggers(SP('2026-11-22T11:59:00'), { documentContext: false, onServiceCall })) expect(run.error).toBeUndefined();
    allServed(emu, DISPATCHERS_PER_OWNER + 2);
    const perExecution = new Map<string, string[]>();
    for (const l of listings) {
      const [exec, method] = l.split(':');
      perExecution.set(exec, [...(perExecution.get(exec) ?? []), method]);
    }
    for (const methods of perExecution.values()) expect(methods).toEqual(['getProjectTriggers']);
    const left = emu.triggers.triggers.map((t) => t.id);
    expect(left).toHaveLength(DISPATCHERS_PER_OWNER);
    for (const id of planted) expect(left).not.toContain(id);
  });
});
