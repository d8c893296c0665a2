/** POST /v2/faturamento/nfse/emitir: shapes and every 400 condition. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness.js';
import { api } from './helpers.js';

let sb: SandboxHandle;
let candidates: any[];
let nfse: any[];
beforeAll(async () => {
  sb = await borrowSandbox({ seed: 6 });
});
beforeEach(async () => {
  await sb.reset();
  const org = sb.orgs[0].name;
  nfse = await sb.dump(org, 'nfse');
  const withNote = new Set(nfse.map((n) => n.idFatura));
  candidates = (await sb.dump<any>(org, 'faturas')).filter((f) => !withNote.has(f.idFatura) && f.statusFatura !== 'CANCELADA');
});
afterAll(async () => {
  await sb?.stop();
});

const emit = (idFatura: unknown, key?: string) => api(sb, '/v2/faturamento/nfse/emitir', { body: { idFatura }, key });

describe('NFS-e emission', () => {
  it('issues a note (record shape) whose id the message names, and lists it afterwards', async () => {
    const f = candidates[0];
    const r = await emit(f.idFatura);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('200');
    const note = r.body.data;
    expect(Array.isArray(note)).toBe(false);
    expect(note).toMatchObject({
      idFatura: f.idFatura,
      numeroFatura: f.numero,
      idCliente: f.idCliente,
      valorServico: f.valorTotal,
      competencia: f.competencia,
    });
    expect(r.body.message.join(' ')).toContain(String(note.idNotaFiscalServico));
    expect(['EMITIDA', 'AUTORIZADA']).toContain(note.statusNotaFiscalServico);
    expect(note.horaEmissao).toMatch(/^\d{2}:\d{2}$/);
    const listed = await api(sb, '/v2/nfse', { query: { idFatura: f.idFatura } });
    expect(listed.body.data).toEqual([note]);
  });

  it('array shape carries paging totals', async () => {
    await sb.configure({ emissionShape: 'array' });
    const r = await emit(candidates[1].idFatura);
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.paging).toEqual({ totalRows: 1, totalPages: 1 });
    expect(r.body.message.join(' ')).toContain(String(r.body.data[0].idNotaFiscalServico));
  });

  it('issued notes are EMITIDA without number or AUTORIZADA with a zero-padded number (both occur)', async () => {
    const notes = [];
    for (const f of candidates.slice(0, 12)) notes.push((await emit(f.idFatura)).body.data);
    const emitida = notes.filter((n) => n.statusNotaFiscalServico === 'EMITIDA');
    const autorizada = notes.filter((n) => n.statusNotaFiscalServico === 'AUTORIZADA');
    expect(emitida.length).toBeGreaterThan(0);
    expect(autorizada.length).toBeGreaterThan(0);
    expect(emitida.every((n) => n.numeroNotaFiscalServico === null)).toBe(true);
    expect(autorizada.every((n) => /^0\d{5}$/.test(n.numeroNotaFiscalServico))).toBe(true);
  });

  it('400 when the invoice already has a note (seeded or just issued)', async () => {
    const seeded = await emit(nfse[0].idFatura);
    expect(seeded.status).toBe(400);
    expect(seeded.body).toMatchObject({ status: '400', data: null });
    expect(seeded.body.message.join()).toContain(String(nfse[0].idFatura));
    const f = candidates[2];
    expect((await emit(f.idFatura)).status).toBe(200);
    const again = await emit(f.idFatura);
    expect(again.status).toBe(400);
    expect((await api(sb, '/v2/nfse', { query: { idFatura: f.idFatura } })).body.data).toHaveLength(1);
  });

  it('400 when the invoice is missing, belongs to another organization, is cancelled, or idFatura is malformed', async () => {
    expect((await emit(123)).status).toBe(400);
    const foreign = (await sb.dump<any>(sb.orgs[1].name, 'faturas'))[0];
    const cross = await emit(foreign.idFatura);
    expect(cross.status).toBe(400);
    expect(cross.body.message.join()).toContain(String(foreign.idFatura));
    const cancelled = (await sb.dump<any>(sb.orgs[0].name, 'faturas')).find((f) => f.statusFatura === 'CANCELADA');
    expect((await emit(cancelled.idFatura)).status).toBe(400);
    for (const bad of ['123', 1.5, null]) {
      const r = await emit(bad);
      expect(r.status).toBe(400);
      expect(r.body.message.join()).toContain('idFatura');
    }
    expect((await api(sb, '/v2/faturamento/nfse/emitir', { body: {} })).status).toBe(400);
  });

  it('400 for an organization without city-hall integration', async () => {
    const demo = sb.orgs.find((o) => !o.hasCityHallIntegration)!;
    const f = (await sb.dump<any>(demo.name, 'faturas')).find((x) => x.statusFatura === 'FATURADA');
    const r = await emit(f.idFatura, demo.apiKey);
    expect(r.status).toBe(400);
    expect(r.body.message.join()).toMatch(/prefeitura/i);
    expect(await sb.dump(demo.name, 'nfse')).toEqual([]);
  });
});
