/**
 * The office option: client companies, each its own organization and key, whose month of 10/2026 holds the
 * status README says, read through the served listings as the add-on reads them; a revoked key refused; a
 * touch moving what an "only changed" refresh asks for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCnpj } from '../../dev/sandbox/brazil.js';
import { borrowSandbox, type OfficeStatus, type OrgInfo, type SandboxHandle, startSandbox } from '../../dev/sandbox/harness.js';
import { STATUS_CYCLE } from '../../dev/sandbox/office.js';
import { api, listAll } from './helpers.js';

const COMP = '10/2026';
/** The service's today: a charge due before it and not paid is overdue. */
const TODAY = '2026-11-22';

interface Month {
  invoices: { idFatura: number; idCliente: number; valorTotal: number }[];
  notes: { idFatura: number; valorServico: number; numeroNotaFiscalServico: string | null; statusNotaFiscalServico: string }[];
  charges: { idCliente: number; valor: number; isQuitado: boolean; dataVencimento: string; competencia: string }[];
}

async function monthOf(sb: SandboxHandle, key: string): Promise<Month> {
  const invoices = await listAll(sb, '/v2/faturamento/faturas', { competencia: COMP }, key);
  const notes = await listAll(sb, '/v2/nfse', { competencia: COMP }, key);
  const charges = (await listAll(sb, '/v2/financeiro/cobrancas', {}, key)).filter((c: Month['charges'][0]) => c.competencia === COMP);
  return { invoices, notes, charges };
}

/** The month's findings as the Fechamento reckons them: notes by invoice id, charges paired by client, equal value first. */
function findings(m: Month) {
  const noted = new Map(m.notes.map((n) => [n.idFatura, n]));
  const pool = [...m.charges];
  const unpaired: typeof m.invoices = [];
  for (const exact of [true, false])
    for (const f of exact ? m.invoices : [...unpaired.splice(0)]) {
      const at = pool.findIndex((c) => c.idCliente === f.idCliente && (!exact || Math.round(c.valor * 100) === Math.round(f.valorTotal * 100)));
      if (at >= 0) pool.splice(at, 1);
      else unpaired.push(f);
    }
  const byId = new Map(m.invoices.map((f) => [f.idFatura, f]));
  return {
    withoutNote: m.invoices.filter((f) => !noted.has(f.idFatura)).length,
    valueDiffers: m.notes.filter((n) => Math.round(n.valorServico * 100) !== Math.round((byId.get(n.idFatura)?.valorTotal ?? Number.NaN) * 100)).length,
    unnumbered: m.notes.filter((n) => !n.numeroNotaFiscalServico).length,
    withoutCharge: unpaired.length,
    chargeWithoutInvoice: pool.length,
    overdue: m.charges.filter((c) => !c.isQuitado && c.dataVencimento < TODAY).length,
  };
}

const CLEAN = { withoutNote: 0, valueDiffers: 0, unnumbered: 0, withoutCharge: 0, chargeWithoutInvoice: 0, overdue: 0 };
const EXPECTED: Record<Exclude<OfficeStatus, 'falha-conexao' | 'sem-movimento'>, typeof CLEAN> = {
  'sem-pendencias': CLEAN,
  'notas-a-emitir': { ...CLEAN, withoutNote: 3 },
  vencidas: { ...CLEAN, overdue: 2 },
  'valor-diferente': { ...CLEAN, valueDiffers: 1 },
  'cobranca-sem-fatura': { ...CLEAN, chargeWithoutInvoice: 1 },
  'nota-sem-numero': { ...CLEAN, unnumbered: 1 },
};

describe('an office of 30 companies', () => {
  let sb: SandboxHandle;
  let office: OrgInfo[];
  beforeAll(async () => {
    sb = await borrowSandbox({ office: 30 });
    office = sb.orgs.filter((o) => o.office);
  });
  afterAll(() => sb.stop());

  it('adds 30 companies after the three demo organizations, each with its own key and a valid CNPJ, three or more of each status', () => {
    expect(sb.orgs.slice(0, 3).map((o) => o.office)).toEqual([undefined, undefined, undefined]);
    expect(office.map((o) => o.office!.number)).toEqual([...Array(30).keys()]);
    expect(new Set(sb.orgs.map((o) => o.apiKey)).size).toBe(33);
    expect(new Set(sb.orgs.map((o) => o.name)).size).toBe(33);
    for (const o of office) expect(isValidCnpj(o.office!.cnpj), o.office!.cnpj).toBe(true);
    const counts = new Map<string, number>();
    for (const o of office) counts.set(o.office!.status, (counts.get(o.office!.status) ?? 0) + 1);
    expect(counts.size).toBe(8);
    for (const n of counts.values()) expect(n).toBeGreaterThanOrEqual(3);
  });

  it('serves each company the month its status says', async () => {
    for (const o of office) {
      const status = o.office!.status;
      if (status === 'falha-conexao') continue;
      const m = await monthOf(sb, o.apiKey);
      if (status === 'sem-movimento') {
        expect([m.invoices.length, m.notes.length, m.charges.length], o.name).toEqual([0, 0, 0]);
        continue;
      }
      expect(m.invoices.length, o.name).toBe(8);
      expect(findings(m), `${o.name} (${status})`).toEqual(EXPECTED[status]);
      if (status === 'sem-pendencias') expect(m.notes.every((n) => n.statusNotaFiscalServico === 'AUTORIZADA')).toBe(true);
    }
  });

  it("refuses a revoked company's key with 401 on every listing, logged under its name, while the others answer", async () => {
    const revoked = office.filter((o) => o.office!.status === 'falha-conexao');
    expect(revoked.map((o) => o.revoked)).toEqual([true, true, true]);
    expect(office.filter((o) => o.revoked)).toHaveLength(3);
    await sb.clearLog();
    for (const path of ['/v2/clientes', '/v2/faturamento/faturas', '/v2/nfse', '/v2/financeiro/cobrancas']) {
      const r = await api(sb, path, { key: revoked[0].apiKey });
      expect(r.status, path).toBe(401);
      expect(r.body.message.join(' ')).toMatch(/revogada/);
    }
    expect((await api(sb, '/v2/clientes', { key: office[0].apiKey })).status).toBe(200);
    const log = await sb.requestLog({ org: revoked[0].name });
    expect(log.map((e) => e.status)).toEqual([401, 401, 401, 401]);
  });

  it('keeps keys and names when the seed changes, and its data when restarted alike', async () => {
    const before = (await monthOf(sb, office[0].apiKey)).invoices;
    const names = sb.orgs.map((o) => [o.name, o.apiKey]);
    await sb.stop();
    const again = await borrowSandbox({ office: 30, seed: 2 });
    expect(again.orgs.map((o) => [o.name, o.apiKey])).toEqual(names);
    expect((await monthOf(again, office[0].apiKey)).invoices).not.toEqual(before);
    await again.stop();
    sb = await borrowSandbox({ office: 30 });
    expect((await monthOf(sb, office[0].apiKey)).invoices).toEqual(before);
  });

  it('touches one company so that only its records move past a refresh', async () => {
    const [clean, other] = office.filter((o) => o.office!.status === 'sem-pendencias');
    const since = { dataHoraAtualizacaoInicial: '01/12/2026 10:00' };
    const touched = await sb.touch({ org: clean.name, kind: 'alterInvoice', at: '2026-12-01T10:30:00' });
    const changed = await listAll(sb, '/v2/faturamento/faturas', since, clean.apiKey);
    expect(changed.map((f) => f.idFatura)).toEqual([touched.id]);
    expect(await listAll(sb, '/v2/faturamento/faturas', since, other.apiKey)).toEqual([]);
    expect(findings(await monthOf(sb, clean.apiKey))).toEqual({ ...CLEAN, valueDiffers: 1 });

    const paid = await sb.touch({ org: clean.name, kind: 'payCharge', at: '2026-12-01T10:31:00' });
    const charges = await listAll(sb, '/v2/financeiro/cobrancas', since, clean.apiKey);
    expect(charges.map((c) => [c.idCobranca, c.isQuitado])).toEqual([[paid.id, true]]);

    const cancelled = await sb.touch({ org: other.name, kind: 'cancelCharge', at: '2026-12-01T10:31:30' });
    expect(await listAll(sb, '/v2/financeiro/cobrancas', since, other.apiKey)).toEqual([]);
    const shown = await listAll(sb, '/v2/financeiro/cobrancas', { ...since, isExibeCanceladas: 'true' }, other.apiKey);
    expect(shown.map((c) => [c.idCobranca, c.situacao, c.isQuitado])).toEqual([[cancelled.id, 'CANCELADA', false]]);

    const added = await sb.touch({ org: clean.name, kind: 'addInvoice', at: '2026-12-01T10:32:00' });
    const month = await monthOf(sb, clean.apiKey);
    expect(month.invoices).toHaveLength(9);
    expect(findings(month).withoutNote).toBe(1);
    const note = await sb.touch({ org: clean.name, kind: 'addNote' });
    const notes = await listAll(sb, '/v2/nfse', { idFatura: added.id }, clean.apiKey);
    expect(notes.map((n) => [n.idNotaFiscalServico, n.statusNotaFiscalServico])).toEqual([[note.id, 'AUTORIZADA']]);
    await expect(sb.touch({ org: sb.orgs[0].name, kind: 'addNote' })).rejects.toThrow(/404/);
  });

  it("changes any organization's first customer, so that the customers' listing is not what it was", async () => {
    const demo = sb.orgs[0];
    const before = await listAll(sb, '/v2/clientes', {}, demo.apiKey);
    const touched = await sb.touch({ org: demo.name, kind: 'alterClient', at: '2026-12-01T10:33:00' });
    const after = await listAll(sb, '/v2/clientes', {}, demo.apiKey);
    expect(touched).toEqual({ org: demo.name, kind: 'alterClient', id: before[0].idCliente, at: '2026-12-01T10:33:00' });
    expect(after.map((c) => c.idCliente)).toEqual(before.map((c) => c.idCliente));
    expect(after.slice(1)).toEqual(before.slice(1));
    expect(after[0].website).not.toBe(before[0].website);
    expect(after[0].dataHoraAtualizacao).not.toBe(before[0].dataHoraAtualizacao);
  });
});

describe('the office option', () => {
  it('reaches a sandbox started on its own, in its own process', async () => {
    const sb = await startSandbox({ office: { companies: 10, invoices: 2 } });
    try {
      expect(sb.orgs.map((o) => o.office?.status ?? null)).toEqual([null, null, null, ...STATUS_CYCLE]);
      const month = await monthOf(sb, sb.orgs[3].apiKey);
      expect(month.invoices).toHaveLength(2);
    } finally {
      await sb.stop();
    }
  });

  it('is off by default: the three demo organizations only', async () => {
    const sb = await borrowSandbox();
    try {
      expect(sb.orgs).toHaveLength(3);
    } finally {
      await sb.stop();
    }
  });

  it('sizes the month per company: 100 companies of 300 invoices start at once, each generated when first asked', async () => {
    const started = performance.now();
    const sb = await borrowSandbox({ office: { companies: 100, invoices: 300 } });
    try {
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(sb.orgs).toHaveLength(103);
      const last = sb.orgs[102];
      expect(last.office!.status).toBe('sem-pendencias');
      const m = await monthOf(sb, last.apiKey);
      expect([m.invoices.length, m.notes.length, m.charges.length]).toEqual([300, 300, 300]);
      expect(findings(m)).toEqual(CLEAN);
    } finally {
      await sb.stop();
    }
  });
});
