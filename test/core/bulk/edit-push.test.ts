/**
 * Pushing edits of an imported subscriptions sheet as a bulk run, without the
 * network: only changed rows are sent, each as the update of its record's type
 * (plano or personalizado) with the connection the import used; the snapshot
 * takes what was sent, so a second push sends nothing; only the importer pushes.
 */
import { describe, expect, it } from 'vitest';
import type { HttpOutcome } from '../../../src/api/transport';
import { NO_EDITS } from '../../../src/core/bulk/edits';
import { previewEditPush } from '../../../src/core/bulk/edit-push';
import { continueBulk } from '../../../src/core/bulk/job';
import { startEditPush } from '../../../src/core/bulk/launch';
import type { BulkDeps } from '../../../src/core/bulk/state';
import { bulkJobStore } from '../../../src/core/bulk/stored-job';
import { SnapshotStore } from '../../../src/core/bulk/snapshot';
import type { CellValue } from '../../../src/core/sheets/table';
import { type Rec, zone, trusted } from './fixtures';
import { MemoryBook, MemorySheet } from './memory-book';
import { foreignDates } from './foreign-dates';
import { json, listOf, scripted } from './scripted';

class ImportedSheet extends MemorySheet {
  readonly columns = new Map<string, number>();
  override columnTags() {
    return this.columns;
  }
}

const FIELDS = ['idAssinaturaContrato', 'tipoContrato', 'valorUnitario', 'quantidade', 'descricaoAssinaturaContrato', 'discriminacaoNfse'];
const HEADER = ['ID da assinatura', 'Tipo de contrato', 'Valor unitário', 'Quantidade', 'Descrição', 'Discriminação da NFS-e'];
const owner = { id: 'u1', email: 'dona@example.com' };
/** A pulled record: its type and the fields an edit may change. */
const record = (idAssinaturaContrato: number, tipoContrato: string, valorUnitario: number, quantidade: number): Rec => ({
  idAssinaturaContrato,
  tipoContrato,
  valorUnitario,
  quantidade,
  descricaoAssinaturaContrato: `Assinatura ${idAssinaturaContrato}`,
  discriminacaoNfse: tipoContrato === 'PLANO' ? null : 'Serviços contábeis',
});
const custom = (id: number, valor: number) => record(id, 'PERSONALIZADO', valor, 1);
const plan = (id: number, quantidade: number) => record(id, 'PLANO', 80, quantidade);

function setUp(records: Rec[], opts: { snapshots?: boolean; refusedKey?: boolean; refuse?: number } = {}) {
  const puts: string[] = [];
  const service = scripted((req, url): HttpOutcome => {
    if (req.method === 'PUT') {
      puts.push(`${url.pathname} ${req.body}`);
      if (opts.refusedKey) return json(401, { message: 'chave revogada' });
      if (Number(url.pathname.split('/').pop()) === opts.refuse) return json(400, { message: ['valor fora do contrato'] });
      return json(200, { data: { idAssinaturaContrato: Number(url.pathname.split('/').pop()) } });
    }
    if (req.method === 'GET') return listOf([]);
    throw new Error(`pedido fora do roteiro: ${req.method} ${req.url}`);
  });
  const book = new MemoryBook();
  const sheet = new ImportedSheet(7, 'Assinaturas');
  book.sheets.push(sheet);
  sheet.write(1, 1, [['Minhas notas', ...HEADER]]);
  FIELDS.forEach((f, i) => sheet.columns.set(f, i + 2));
  sheet.write(
    2,
    1,
    records.map((r) => ['', ...FIELDS.map((f) => (r[f] ?? '') as CellValue)]),
  );
  const snapshots = new SnapshotStore(trusted());
  snapshots.pulled(sheet.id, owner, 'c1', records, 1_000);
  const connections: string[] = [];
  let clock = Date.UTC(2026, 10, 22, 12);
  const deps: BulkDeps = {
    book,
    jobs: bulkJobStore(trusted()),
    zone,
    now: () => (clock += 10),
    sleep: () => {},
    newId: () => 'nunca',
    clientFor: (id) => {
      connections.push(id);
      return service.client;
    },
    snapshots: opts.snapshots === false ? undefined : snapshots,
  };
  const far = () => clock + 600_000;
  return { book, sheet, deps, puts, connections, far, snapshots };
}

const at = (field: string) => FIELDS.indexOf(field) + 2;
/** What Enviar carries: the token of the preview the owner just saw. */
const seen = (deps: BulkDeps, who: typeof owner | undefined = owner) => previewEditPush(deps, 'Assinaturas', who).token;

describe('pushing edits of an imported sheet', () => {
  it('sends each changed row as the update of its own type, with the import’s connection, then nothing more', () => {
    const { sheet, deps, puts, connections, far } = setUp([custom(1, 100), plan(2, 1), custom(3, 50)]);
    sheet.write(2, at('valorUnitario'), [[120]]);
    sheet.write(3, at('quantidade'), [[3]]);
    const preview = previewEditPush(deps, 'Assinaturas', owner);
    expect(preview).toMatchObject({ sheetName: 'Assinaturas', count: 2, invalid: 0 });
    expect(preview).not.toHaveProperty('changed');
    const p = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(p).toMatchObject({ status: 'done', label: 'Enviar alterações da planilha', total: 2, counts: { ok: 2, failed: 0 } });
    expect(p.warnings).toEqual([]);
    expect(puts.map((l) => l.split(' ')[0]).sort()).toEqual(['/v2/assinaturascontratos/personalizado/1', '/v2/assinaturascontratos/plano/2']);
    expect(
      JSON.parse(
        puts
          .find((l) => l.includes('personalizado'))!
          .split(' ')
          .slice(1)
          .join(' '),
      ),
    ).toMatchObject({ valor: 120 });
    expect(connections.every((c) => c === 'c1')).toBe(true);
    expect(sheet.records().map((r) => r.Status)).toEqual(['OK', 'OK', '']);
    // The snapshot took what was sent: nothing is left to push.
    const again = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(again).toMatchObject({ status: 'done', done: true, jobId: '', total: 0, message: NO_EDITS, owner: 'dona@example.com', warnings: [] });
    expect(again.warnings).toEqual([]);
    // Where there are no owners (runs started before them), nobody's name.
    expect(startEditPush(deps, { sheetName: 'Assinaturas', preview: seen(deps, undefined) }, far()).owner).toBeNull();
    expect(puts).toHaveLength(2);
  });

  it('a push cut short goes on in the next step with its rows, never resending those done', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100), custom(2, 100)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('valorUnitario'), [[130]]);
    const started = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, Date.UTC(2000, 0, 1));
    expect(started.status).toBe('running');
    expect(puts).toEqual([]);
    const done = continueBulk(deps, started.jobId, far());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 2 } });
    expect(puts).toHaveLength(2);
  });

  it('a changed row with a bad value is not sent, and says which cell', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100), custom(2, 100)]);
    sheet.write(2, at('valorUnitario'), [['caro']]);
    sheet.write(3, at('valorUnitario'), [[90]]);
    const p = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(p.counts).toMatchObject({ ok: 1, failed: 1 });
    expect(puts).toHaveLength(1);
    expect(String(sheet.records()[0].Mensagem)).toMatch(/^Linha 2, coluna /);
  });

  it('only the one who imported pushes; without a snapshot or where pushes are unavailable, nothing is sent', () => {
    const { deps, far } = setUp([custom(1, 100)]);
    expect(() => startEditPush(deps, { sheetName: 'Assinaturas', owner: { id: 'u2', email: 'outra@example.com' } }, far())).toThrow(
      'Estas assinaturas foram importadas por dona@example.com: só quem importou envia as alterações',
    );
    const bare = setUp([custom(1, 100)], { snapshots: false });
    expect(() => startEditPush(bare.deps, { sheetName: 'Assinaturas', owner }, far())).toThrow('Envio de alterações indisponível aqui.');
    const none = setUp([]);
    none.deps.snapshots = new SnapshotStore(trusted());
    expect(() => previewEditPush(none.deps, 'Assinaturas', owner)).toThrow('A aba "Assinaturas" ainda não tem a base de comparação');
  });

  it('a row pushed before and edited again is sent again with its new value; rows untouched since stay as they are', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100), custom(2, 100)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('valorUnitario'), [[120]]);
    startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(puts).toHaveLength(2);
    sheet.write(2, at('valorUnitario'), [[115]]);
    const p = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(p).toMatchObject({ status: 'done', total: 1, counts: { ok: 1, skipped: 0 } });
    expect(puts).toHaveLength(3);
    expect(JSON.parse(puts[2].split(' ').slice(1).join(' '))).toMatchObject({ valor: 115 });
    expect(puts[2]).toContain('/personalizado/1 ');
  });

  it('a push killed after its rows were written OK settles them on the next step, sending nothing again, whatever realm the dates come from', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100)]);
    foreignDates(sheet);
    sheet.write(2, at('valorUnitario'), [[110]]);
    const started = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far() - 700_000);
    expect(started.status).toBe('running');
    // Another execution wrote the row OK (its answer came back) but died before the snapshot took it.
    const header = sheet.grid[0].map(String);
    sheet.write(2, header.indexOf('Status') + 1, [['OK']]);
    sheet.write(2, header.indexOf('Processado em') + 1, [[new Date(far())]]);
    const done = continueBulk(deps, started.jobId, far());
    expect(done).toMatchObject({ status: 'done', counts: { ok: 1 } });
    expect(puts).toEqual([]);
    // The snapshot now holds it: nothing left to push.
    expect(startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far()).message).toBe(NO_EDITS);
  });

  it('a refused key stops the whole push: the other type’s rows are not sent and go back to how they were', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100), plan(2, 1)], { refusedKey: true });
    sheet.write(2, at('valorUnitario'), [[120]]);
    sheet.write(3, at('quantidade'), [[3]]);
    const p = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(p.status).toBe('failed');
    expect(p.message).toContain('A chave de API foi recusada');
    expect(puts).toHaveLength(1);
    const statuses = sheet.records().map((r) => r.Status);
    expect(statuses.filter((st) => st === 'PENDENTE')).toEqual([]);
    expect(statuses).toContain('');
  });

  it('a sheet imported with too many subscriptions to compare is refused, saying so', () => {
    const { deps, far, snapshots, sheet } = setUp([custom(1, 100)]);
    snapshots.pulled(
      sheet.id,
      owner,
      'c1',
      Array.from({ length: 20_001 }, (_, i) => custom(10 + i, 1)),
      2_000,
    );
    expect(() => startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far())).toThrow(
      'A aba tem assinaturas demais para comparar as alterações (mais de 20.000): filtre a importação.',
    );
  });

  it('a second push while one is running goes on with it instead of starting another', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    const started = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, Date.UTC(2000, 0, 1));
    const again = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(again).toMatchObject({ jobId: started.jobId, status: 'running' });
    expect(again.message).toMatch(/^Já há um lote em andamento nesta aba/);
    expect(puts).toEqual([]);
  });

  it('a row the service refused is still an edit: the next push sends it again', () => {
    const { sheet, deps, puts, far } = setUp([custom(1, 100), custom(2, 100)], { refuse: 1 });
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('valorUnitario'), [[120]]);
    expect(startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far()).counts).toMatchObject({ ok: 1, failed: 1 });
    const again = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, far());
    expect(again).toMatchObject({ total: 1, counts: { failed: 1 } });
    expect(puts.map((l) => l.split(' ')[0])).toEqual([
      '/v2/assinaturascontratos/personalizado/1',
      '/v2/assinaturascontratos/personalizado/2',
      '/v2/assinaturascontratos/personalizado/1',
    ]);
  });

  it('a row whose subscription left the last import meanwhile is refused on its row, and the others go', () => {
    const { sheet, deps, puts, far, snapshots } = setUp([custom(1, 100), custom(2, 100)]);
    sheet.write(2, at('valorUnitario'), [[110]]);
    sheet.write(3, at('valorUnitario'), [[120]]);
    const started = startEditPush(deps, { sheetName: 'Assinaturas', owner, preview: seen(deps) }, Date.UTC(2000, 0, 1));
    // The owner pulls the sheet again with another connection: the snapshot starts over, without subscription 1.
    snapshots.pulled(sheet.id, owner, 'c2', [custom(2, 100)], 2_000);
    const done = continueBulk(deps, started.jobId, far());
    expect(done.counts).toMatchObject({ ok: 1, failed: 1 });
    expect(String(sheet.records()[0].Mensagem)).toMatch(/^Linha 2, coluna "ID da assinatura" \(B\): esta assinatura não está na última importação da aba/);
    expect(puts.map((l) => l.split(' ')[0])).toEqual(['/v2/assinaturascontratos/personalizado/2']);
  });
});
