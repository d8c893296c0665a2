/** Bulk rows are known by their key: the same key on two rows is refused, naming both rows, and nothing is sent for them. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../dev/sandbox/harness';
import { SAFE_RESEND_MS } from '../../src/core/bulk/batch';
import { continueBulk } from '../../src/core/bulk/job';
import { startBulk } from '../../src/core/bulk/launch';
import { validateSheet } from '../../src/core/bulk/validate';
import { catalog, CUSTOM_HEADER, customRow, deps, type Rec } from './fixtures';
import { MemoryBook } from './memory-book';

let sb: SandboxHandle;
let cat: Awaited<ReturnType<typeof catalog>>;
const FAR = () => Date.now() + 60_000;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, size: 'small' });
});
afterAll(async () => {
  await sb?.stop();
});
beforeEach(async () => {
  await sb.reset();
  cat = await catalog(sb);
});

describe('duplicate keys', () => {
  it('the same ID de integração on two rows is a validation error naming both rows; neither is sent', async () => {
    const [c1, c2] = cat.clientes;
    const [p1] = cat.produtos;
    const book = new MemoryBook();
    const sheet = book.sheet('Lote', [...CUSTOM_HEADER, 'Status'], [customRow('K-1', c1, p1, 1), customRow('K-2', c2, p1, 2), customRow('K-1', c2, p1, 3)]);
    const d = deps(sb, book);
    const summary = validateSheet(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', scope: 'all' });
    expect(summary).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(String(sheet.cell(2, 'Mensagem'))).toMatch(/"K-1" repetido: está também na linha 4/);
    expect(String(sheet.cell(4, 'Mensagem'))).toMatch(/"K-1" repetido: está também na linha 2/);
    const p = startBulk(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, FAR());
    expect(p).toMatchObject({ status: 'done', counts: { ok: 1, failed: 2 } });
    const posts = (await sb.requestLog({ method: 'POST', pathPrefix: '/v2/assinaturascontratos' })).map((e) => (e.body as Rec).idIntegracao);
    expect(posts).toEqual(['K-2']);
  });

  it('a key typed again while a run is under way is refused by the next step too', async () => {
    const [c1, c2] = cat.clientes;
    const [p1] = cat.produtos;
    const book = new MemoryBook();
    const sheet = book.sheet('Lote', [...CUSTOM_HEADER, 'Status'], [customRow('K-1', c1, p1, 1), customRow('K-2', c2, p1, 2), customRow('K-3', c2, p1, 3)]);
    const d = deps(sb, book);
    // A deadline already passed: the start validates and writes, and sends nothing.
    const p = startBulk(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, Date.now() - 1);
    expect(p.status).toBe('running');
    sheet.write(4, 1, [['K-2']]);
    const end = continueBulk(d, p.jobId, FAR());
    expect(end).toMatchObject({ status: 'done', counts: { ok: 1, failed: 2 } });
    expect(String(sheet.cell(3, 'Mensagem'))).toMatch(/repetido/);
  });
});

describe('unknown outcomes', () => {
  it('are never resent in the same execution; a later one resends only after the safe delay, when the service still has nothing', async () => {
    const [c1, c2] = cat.clientes;
    const [p1] = cat.produtos;
    const book = new MemoryBook();
    const sheet = book.sheet('Lote', [...CUSTOM_HEADER, 'Status'], [customRow('U-1', c1, p1, 1), customRow('U-2', c2, p1, 2)]);
    let now = Date.now();
    const d = deps(sb, book, { now: () => now });
    // The first POST of U-1 fails with a 500 the service did not commit: its outcome is unknown to the add-on.
    await sb.configure({ addFaults: [{ kind: 'status', status: 500, method: 'POST', times: 1 }] });
    const first = startBulk(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all', batchSize: 1 }, now + 60_000);
    expect(first).toMatchObject({ status: 'done', counts: { ok: 1, pending: 1 } });
    const postsOf = async (key: string) => (await sb.requestLog({ method: 'POST' })).filter((e) => (e.body as Rec).idIntegracao === key).length;
    expect(await postsOf('U-1')).toBe(1);
    expect(sheet.cell(2, 'Status')).toBe('PENDENTE');
    // Run again at once: looked up, nothing found, still not resent.
    now += 60_000;
    const again = startBulk(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, now + 60_000);
    expect(again.counts.pending).toBe(1);
    expect(await postsOf('U-1')).toBe(1);
    // After the safe delay the service still has nothing: now it is sent, once.
    now += SAFE_RESEND_MS;
    const later = startBulk(d, { operation: 'criarAssinaturaPersonalizada', sheetName: 'Lote', connection: 'x', scope: 'all' }, now + 60_000);
    expect(later.counts).toMatchObject({ ok: 1, pending: 0 });
    expect(await postsOf('U-1')).toBe(2);
    const dump = await sb.dump<Rec>(sb.orgs[0].name, 'assinaturas');
    expect(dump.filter((a) => a.idIntegracao === 'U-1')).toHaveLength(1);
  });
});
