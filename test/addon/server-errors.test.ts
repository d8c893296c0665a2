/**
 * Every sidebar server through the real bundle: a problem the user can fix
 * comes back as a refusal the page shows, and anything else (a bug: here a
 * TypeError thrown by a port in the middle of the call) is thrown to
 * google.script.run's failure handler, never dressed as a message.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import { emulator } from './helpers';

const BUG = "Cannot read properties of undefined (reading 'id')";

/** Run options under which the first call of `object.method` throws what `make` builds in the script's realm. */
function failing(object: string, method: string, make: (call: ServiceCall) => Error) {
  let thrown = false;
  return {
    onServiceCall: (call: ServiceCall) => {
      if (thrown || call.object !== object || call.method !== method) return;
      thrown = true;
      throw make(call);
    },
  };
}

/** A plain TypeError of the script's own realm, as a bug in the bundle would throw. */
const typeError = (call: ServiceCall): Error => {
  const TypeErrorOfScript = vm.runInContext('TypeError', call.execution.realm.context) as ErrorConstructor;
  return new TypeErrorOfScript(BUG);
};

/** The work sheet is where the document keeps reports, runs and dashboards: its lookup fails. */
const storeBug = () => failing('Spreadsheet', 'getSheetByName', typeError);

const ALLOWED = 'https://api.faturamento.example.com.br';

/** An editor with one connection, as every sidebar but Conexões expects. */
function connected() {
  const emu = emulator();
  expect(emu.run('saveConnection', [{ name: 'Demo', baseUrl: ALLOWED, apiKey: 'k' }])).toMatchObject({ ok: true });
  return emu;
}

function expectThrown(name: string, args: unknown[], options: ReturnType<typeof failing>): void {
  const report = connected().execute(name, args, options);
  expect(report.value).toBeUndefined();
  expect(report.status).toBe('error');
  expect(report.error).toMatchObject({ name: 'TypeError', message: BUG });
}

describe('a bug in a sidebar call is thrown, not refused', () => {
  it.each([
    // Conexões
    ['saveConnection', [{ name: 'Padaria', baseUrl: ALLOWED, apiKey: 'k' }], () => failing('Properties', 'setProperty', typeError)],
    ['testConnection', [{ id: 'c1' }], () => failing('Properties', 'getProperty', typeError)],
    // Importar
    ['startImportRun', [{ connection: 'Demo', listing: 'clientes', sheetName: 'Clientes', filters: {} }], storeBug],
    // Relatórios
    ['setReportSchedule', ['r1', null, false], storeBug],
    ['takeOverReport', ['r1', 'c1'], storeBug],
    ['setReportConnection', ['r1', 'Demo'], () => failing('Properties', 'getProperty', typeError)],
    // Lançamentos em lote and Enviar alterações
    ['createBulkTemplate', ['criarAssinaturaPersonalizada'], () => failing('Spreadsheet', 'insertSheet', typeError)],
    ['validateBulk', [{ operation: 'criarAssinaturaPersonalizada', sheetName: 'Assinaturas', connection: '', scope: 'all' }], storeBug],
    ['previewSheetEdits', ['Assinaturas'], () => failing('Properties', 'getProperty', typeError)],
    // Painéis
    ['createDashboard', [{ kind: 'vencimentos', reportId: 'r1' }], storeBug],
    ['refreshDashboardNow', ['d1'], storeBug],
    ['deleteDashboard', ['d1'], storeBug],
    ['prepareNfseIssue', ['d1'], storeBug],
  ] as const)('%s', (name, args, options) => {
    expectThrown(name, [...args], options());
  });
});

describe('the same ports failing in a way the user can fix are refused', () => {
  it('a full property store: saving a connection says what to delete, and nothing is thrown', () => {
    const full = failing('Properties', 'setProperty', (call) =>
      call.execution.error('You have exceeded the property storage quota. Please remove some properties and try again.'),
    );
    const report = emulator().execute('saveConnection', [{ name: 'Padaria', baseUrl: ALLOWED, apiKey: 'k' }], full);
    expect(report.status).toBe('ok');
    expect(report.value).toEqual({ ok: false, message: expect.stringMatching(/500 KB.*Exclua relatórios que não usa/) });
  });

  it('a dashboard, a report or a connection that is not there any more is refused in words', () => {
    const emu = emulator();
    expect(emu.run('refreshDashboardNow', ['d1'])).toEqual({ ok: false, message: 'Este painel não existe mais. Atualize a lista de painéis.' });
    expect(emu.run('setReportSchedule', ['r1', null, false])).toEqual({
      ok: false,
      message: 'Este relatório não existe mais. Atualize a lista de relatórios.',
    });
    expect(emu.run('setReportConnection', ['r1', 'Outra'])).toMatchObject({
      ok: false,
      field: 'connection',
      message: expect.stringMatching(/Nenhuma conexão/),
    });
  });
});
