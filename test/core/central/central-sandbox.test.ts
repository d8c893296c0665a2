/**
 * The Central against the sandbox over real HTTP: every column of every
 * company's row to the cent against the sandbox's own records (worked out
 * again from its dump, not by the code under test), for one company and for
 * every organization the sandbox has (its three demo organizations and an
 * office of 30 companies, one of each status); a refresh killed between and inside
 * steps that resumes without reading or counting a company twice; a company
 * whose key is refused; the hourly refresh that reads in full only the
 * companies whose data changed; and a review cleared when its figures change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../../dev/http/node-transport';
import { borrowSandbox, type RequestLogEntry, type SandboxHandle } from '../../../dev/sandbox/harness';
import type { Transport } from '../../../src/api/transport';
import { monthAsk } from '../../../src/core/central/ask';
import { ReviewStore } from '../../../src/core/central/marks';
import { monthFigures } from '../../../src/core/central/month';
import { centralSummary, currentJob, reviewCompany, startCentral, stepCentral } from '../../../src/core/central/refresh';
import { COLUMNS } from '../../../src/core/central/sheet';
import { CentralStore, type CentralCompany } from '../../../src/core/central/store';
import { todayOf } from '../../../src/core/dashboards/sources';
import { identifyOrganization } from '../../../src/core/connections/organizations';
import { plural } from '../../../src/api/words';
import type { CellValue } from '../../../src/core/sheets/table';
import { MemoryStore } from '../bulk/fixtures';
import { clientOf, companiesOf, type Expected, expectedMonth, NOW, office, type Office, type Rec, user, zone } from './office';

let sb: SandboxHandle;
let companies: CentralCompany[];
const COMP = '10/2026';
/** Enough invoices and charges a month for each listing to take several pages. */
const SIZE = { clientes: 200, faturas: 3000, cobrancas: 3000, transacoes: 10, assinaturas: 10 };
const FAR = { deadline: NOW + 3_600_000 };

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 7, size: SIZE, office: 30 });
  companies = companiesOf(sb);
}, 120_000);
afterAll(async () => {
  await sb?.stop();
});

function run(o: Office, start: Parameters<typeof startCentral>[1], times = FAR): number {
  startCentral(o.deps, start);
  let steps = 0;
  for (let r = { done: false }; !r.done; steps++) {
    r = stepCentral(o.deps, times);
    if (steps > 200) throw new Error('the refresh does not end');
  }
  return steps;
}

/** The company rows of the Central sheet, by company name, as records of their column headers. */
function rowsOf(o: Office): Map<string, Record<string, CellValue>> {
  const sheet = o.sheet();
  const all = sheet.read(1, 1, sheet.lastRow(), COLUMNS.length);
  const header = all.findIndex((r) => r[0] === 'Empresa');
  const out = new Map<string, Record<string, CellValue>>();
  for (const r of all.slice(header + 1)) {
    if (String(r[0]).startsWith('Total')) out.set('Total', Object.fromEntries(COLUMNS.map((c, i) => [c.header, r[i]])));
    else out.set(String(r[0]), Object.fromEntries(COLUMNS.map((c, i) => [c.header, r[i]])));
  }
  return out;
}

/** What each figure column holds for an expected month. */
const figureColumns = (e: Expected): Record<string, number> => ({
  'Faturas (qtde)': e.invoices.count,
  'Faturas (valor)': e.invoices.cents / 100,
  'NFS-e emitidas (qtde)': e.notesIssued.count,
  'NFS-e emitidas (valor dos serviços)': e.notesIssued.cents / 100,
  'NFS-e a emitir (qtde)': e.notesMissing.count,
  'NFS-e a emitir (valor)': e.notesMissing.cents / 100,
  'ISS retido': e.issRetido / 100,
  'ISS a recolher': e.issDue / 100,
  'Cobranças em aberto (qtde)': e.chargesOpen.count,
  'Cobranças em aberto (valor)': e.chargesOpen.cents / 100,
  'Cobranças vencidas (qtde)': e.chargesOverdue.count,
  'Cobranças vencidas (valor)': e.chargesOverdue.cents / 100,
  Divergências: e.divergences,
});

const orgEntries = async (org: string) => sb.requestLog({ org });

describe('one company', () => {
  it.each(['10/2026', '11/2026', '01/2025'])('its month %s, from the listings the Central asks, equals its records to the cent', async (competencia) => {
    for (const org of sb.orgs.slice(0, 3)) {
      const client = clientOf(sb, org.apiKey);
      const ask = monthAsk(competencia);
      const records = {
        faturas: client.listAll('faturas', ask.faturas).records,
        nfse: client.listAll('nfse', ask.nfse).records,
        cobrancas: client.listAll('cobrancas', ask.cobrancas).records,
      };
      const f = monthFigures(records, competencia, todayOf(zone, NOW));
      const e = await expectedMonth(sb, org.name, competencia);
      expect({
        invoices: f.invoices,
        notesIssued: f.notesIssued,
        notesMissing: f.notesMissing,
        issRetido: f.issRetidoCents,
        issDue: f.issDueCents,
        chargesOpen: f.chargesOpen,
        chargesOverdue: f.chargesOverdue,
        divergences: f.divergences,
        empty: f.empty,
      }).toEqual(e);
      expect(f.invoices.count, `${org.name} ${competencia} has invoices`).toBeGreaterThan(0);
    }
  });
});

describe("one company's Central", () => {
  let rows: Map<string, Record<string, CellValue>>;
  let expected: Expected;
  beforeAll(async () => {
    const o = office(sb);
    run(o, { competencia: COMP, companies: companies.slice(0, 1), onlyChanged: false });
    rows = rowsOf(o);
    expected = await expectedMonth(sb, sb.orgs[0].name, COMP);
  }, 120_000);

  it.each(Object.keys(figureColumns(expectedBlank())))('column "%s" of its row and of the total, to the cent', (header) => {
    const want = figureColumns(expected)[header];
    expect(rows.get(sb.orgs[0].name)?.[header]).toBeCloseTo(want, 9);
    expect(rows.get('Total')?.[header]).toBe(Math.round(want * 100) / 100);
    // A month of several pages of each listing: the figure is not a trivial one.
    if (header === 'Faturas (qtde)') expect(want).toBeGreaterThan(100);
  });
});

describe('every organization of the sandbox at once', () => {
  let o: Office;
  let expected: Map<string, Expected>;
  let rows: Map<string, Record<string, CellValue>>;
  beforeAll(async () => {
    o = office(sb);
    // A second connection of the first organization (its other key) is counted once.
    const copy = { connectionId: 'copia', name: 'Cópia', organization: identifyOrganization(clientOf(sb, sb.orgs[0].otherKeys![0])) };
    run(o, { competencia: COMP, companies: [...companies.slice(0, 1), copy, ...companies.slice(1)], onlyChanged: false });
    rows = rowsOf(o);
    expected = new Map();
    for (const org of sb.orgs) if (!org.revoked) expected.set(org.name, await expectedMonth(sb, org.name, COMP));
  }, 120_000);

  it.each(Object.keys(figureColumns(expectedBlank())))('column "%s" of each company, and of the total, to the cent', (header) => {
    let total = 0;
    for (const org of sb.orgs) {
      if (org.revoked) {
        expect(rows.get(org.name)?.[header], `${org.name}: ${header}`).toBe('');
        continue;
      }
      const want = figureColumns(expected.get(org.name)!)[header];
      expect(rows.get(org.name)?.[header], `${org.name}: ${header}`).toBeCloseTo(want, 9);
      total += want;
    }
    // Summed in cents by the sheet: the test's sum of amounts in reais, rounded to the cent.
    expect(rows.get('Total')?.[header]).toBe(Math.round(total * 100) / 100);
    const failed = sb.orgs.filter((org) => org.revoked).length;
    expect(rows.get('Total')?.Empresa).toBe(
      `Total de ${plural(expected.size, 'empresa contada', 'empresas contadas')}${failed ? ` (${plural(failed, 'empresa com falha fica fora', 'empresas com falha ficam fora')})` : ''}`,
    );
  });

  it('names each company and its organization by its CNPJ as text, every digit kept, with its status in words', () => {
    for (const [i, org] of sb.orgs.entries()) {
      const row = rows.get(org.name)!;
      const digits = companies[i].organization?.document ?? '';
      expect(String(row['Organização (CNPJ)']).replace(/\D/g, '')).toBe(digits);
      if (i < 3) expect(digits).toMatch(/^\d{11,14}$/);
      if (org.revoked) {
        expect(row.Status).toMatch(/^Falha na conexão: .*401/);
        continue;
      }
      const e = expected.get(org.name)!;
      const other = e.divergences - e.notesMissing.count;
      expect(row.Status).toBe(
        e.empty
          ? 'Sem movimento: nenhuma fatura, NFS-e ou cobrança da competência'
          : e.notesMissing.count || e.chargesOverdue.count || other
            ? `Pendências: ${[
                e.notesMissing.count ? `${e.notesMissing.count} ${e.notesMissing.count === 1 ? 'nota a emitir' : 'notas a emitir'}` : '',
                e.chargesOverdue.count ? `${e.chargesOverdue.count} ${e.chargesOverdue.count === 1 ? 'cobrança vencida' : 'cobranças vencidas'}` : '',
                other ? `${other} ${other === 1 ? 'divergência' : 'divergências'}` : '',
              ]
                .filter(Boolean)
                .join(', ')}`
            : 'Sem pendências',
      );
      expect(row['Números lidos em']).toEqual(new Date(NOW));
    }
    const sheet = o.sheet();
    const at = [...sheet.formats.entries()].filter(([k, f]) => k.endsWith(':2') && f === '@');
    expect(at.length).toBeGreaterThan(sb.orgs.length);
    expect(sheet.text(1)).toBe(`Central do escritório · competência ${COMP}`);
    expect(rows.size).toBe(sb.orgs.length + 1);
    expect(sheet.text(6)).toBe(`Conexões da mesma organização contadas uma vez: "Cópia" (a mesma de "${sb.orgs[0].name}").`);
  });

  it('says of each office company the status its month was seeded with, in an accountant’s words', () => {
    const words: Record<string, RegExp> = {
      'sem-pendencias': /^Sem pendências$/,
      'notas-a-emitir': /^Pendências: \d+ notas? a emitir$/,
      vencidas: /^Pendências: \d+ cobranças? vencidas?$/,
      'valor-diferente': /^Pendências: \d+ divergências?$/,
      'cobranca-sem-fatura': /^Pendências: \d+ divergências?$/,
      'nota-sem-numero': /^Pendências: \d+ divergências?$/,
      'sem-movimento': /^Sem movimento: /,
      'falha-conexao': /^Falha na conexão: /,
    };
    const offices = sb.orgs.filter((org) => org.office);
    expect(offices).toHaveLength(30);
    expect(new Set(offices.map((org) => org.office!.status))).toEqual(new Set(Object.keys(words)));
    for (const org of offices) expect(rows.get(org.name)?.Status, `${org.name} (${org.office!.status})`).toMatch(words[org.office!.status]);
  });

  it('a refresh killed inside a step and between steps resumes, reading no company it finished and counting each once', async () => {
    const doc = new MemoryStore();
    // Killed on the second round trip of the second company: the first was read whole, the second half-way.
    let seen = 0;
    const second = sb.orgs[1].apiKey;
    const carries = (rs: Array<{ headers: Record<string, string> }>) => rs.some((r) => Object.values(r.headers).includes(second));
    const killing: Transport = {
      fetch: (r) => {
        if (carries([r]) && ++seen === 2) throw new Error('Exceeded maximum execution time');
        return nodeTransport.fetch(r);
      },
      fetchAll: (rs) => {
        if (carries(rs) && ++seen === 2) throw new Error('Exceeded maximum execution time');
        return nodeTransport.fetchAll(rs);
      },
    };
    const first = office(sb, { doc, transport: killing });
    first.deps.lanes = 1;
    startCentral(first.deps, { competencia: COMP, companies, onlyChanged: false });
    // Steps cut short by their soft deadline, each a new execution, until the kill.
    const done = () => new CentralStore(first.deps.store).month(COMP);
    const step = () => stepCentral({ ...office(sb, { doc, transport: killing }).deps, lanes: 1 }, { deadline: NOW - 1 });
    const n = sb.orgs.length;
    expect(step()).toEqual({ done: false, progress: { done: 1, total: n, message: `Atualizando a Central: 1 de ${n} empresas…` } });
    expect(() => {
      for (let i = 0; i < 50; i++) step();
    }).toThrow('Exceeded maximum execution time');
    const before = [...done().values()].filter((m) => m.run === currentJob(first.deps)!.id).map((m) => m.company.name);
    expect(before).toEqual([sb.orgs[0].name]);
    await sb.clearLog();
    const again = office(sb, { doc });
    const r = stepCentral(again.deps, FAR);
    expect(r).toEqual({
      done: true,
      progress: { done: sb.orgs.length, total: sb.orgs.length, message: `Central atualizada: ${sb.orgs.length} empresas na competência ${COMP}.` },
    });
    expect(stepCentral(again.deps, FAR).done).toBe(true);
    for (const name of before) expect(await orgEntries(name), name).toEqual([]);
    expect(rowsOf(again)).toEqual(rows);
    expect(done().size).toBe(sb.orgs.length);
  });

  it('a company whose key is refused, and one whose service does not answer, get "Falha na conexão" with the reason, and the others are right', async () => {
    const bad = office(sb);
    bad.keys.set('c1', 'chave-errada');
    await sb.configure({ addFaults: [{ kind: 'reset', org: sb.orgs[2].name }] });
    run(bad, { competencia: COMP, companies, onlyChanged: false });
    await sb.configure({ faults: [] });
    const got = rowsOf(bad);
    const failed = got.get(sb.orgs[1].name)!;
    expect(failed.Status).toMatch(/^Falha na conexão: .*(401|chave|autoriza)/i);
    expect(failed['Faturas (qtde)']).toBe('');
    expect(got.get(sb.orgs[2].name)?.Status).toMatch(/^Falha na conexão: .+/);
    expect(got.get(sb.orgs[2].name)?.['Faturas (valor)']).toBe('');
    for (const org of sb.orgs.filter((_, i) => i !== 1 && i !== 2)) expect(got.get(org.name)).toEqual(rows.get(org.name));
    const fine = sb.orgs.filter((org, i) => i !== 1 && i !== 2 && !org.revoked);
    const failures = sb.orgs.length - fine.length;
    expect(got.get('Total')?.Empresa).toBe(
      `Total de ${plural(fine.length, 'empresa contada', 'empresas contadas')} (${failures} empresas com falha ficam fora)`,
    );
    const sum = fine.reduce((n, org) => n + expected.get(org.name)!.invoices.cents, 0);
    expect(got.get('Total')?.['Faturas (valor)']).toBeCloseTo(sum / 100, 9);
  });
});

function expectedBlank(): Expected {
  const t = { count: 0, cents: 0 };
  return { invoices: t, notesIssued: t, notesMissing: t, issRetido: 0, issDue: 0, chargesOpen: t, chargesOverdue: t, divergences: 0, empty: true };
}

describe('the hourly refresh of the changed companies only', () => {
  const isCheck = (e: RequestLogEntry) => 'dataHoraAtualizacaoInicial' in e.query || e.query.sortOrder === 'desc';

  it('reads in full only the company with a new note, keeps the others as they were, and clears the review of its changed figures', async () => {
    await sb.reset();
    const o = office(sb);
    run(o, { competencia: COMP, companies, onlyChanged: false });
    const reviews = new ReviewStore(o.deps.store);
    const central = new CentralStore(o.deps.store);
    for (const c of companies.slice(0, 3)) reviewCompany(o.deps, c.connectionId, true);
    reviewCompany(o.deps, companies[2].connectionId, false);
    const marked = rowsOf(o);
    expect([0, 1, 2].map((i) => marked.get(sb.orgs[i].name)?.['Conferida por'])).toEqual([user.email, user.email, '']);
    const summary = centralSummary(o.deps)!;
    expect(summary).toMatchObject({ competencia: COMP, running: false });
    expect(summary.companies.map((c) => [c.name, c.status.text, c.reviewedBy ?? ''])).toEqual(
      sb.orgs.map((org) => [org.name, marked.get(org.name)?.Status, marked.get(org.name)?.['Conferida por']]),
    );
    expect(summary.companies[0].figures?.invoices.count).toBe(marked.get(sb.orgs[0].name)?.['Faturas (qtde)']);
    expect(() => reviewCompany(o.deps, 'c-none', true)).toThrow(/não está na última atualização da Central/);
    const keep = companies.slice(1).map((c) => o.doc.get(`faturamento.central.empresa.${central.find(COMP, c)!.id}`));

    // A note issued for an invoice of the month that had none, in the first company; in the office, an invoice altered,
    // a charge paid, a note added and a charge cancelled, each in a company of its own.
    const touched = [
      ['sem-pendencias', 'alterInvoice'],
      ['vencidas', 'payCharge'],
      ['notas-a-emitir', 'addNote'],
      // A cancelled charge leaves the listing that does not ask for cancelled ones: only a check that does sees it.
      ['cobranca-sem-fatura', 'cancelCharge'],
    ] as const;
    const touchedCompanies = touched.flatMap(([status, kind]) => {
      const company = sb.orgs.find((x) => x.office?.status === status);
      return company ? [{ company, kind }] : [];
    });
    expect(touchedCompanies).toHaveLength(4);
    for (const { company, kind } of touchedCompanies) await sb.touch({ org: company.name, kind });
    const org = sb.orgs[0];
    const notes = await sb.dump<Rec>(org.name, 'nfse');
    const noted = new Set(notes.map((n) => n.idFatura));
    const invoice = (await sb.dump<Rec>(org.name, 'faturas')).find((f) => f.competencia === COMP && f.statusFatura === 'FATURADA' && !noted.has(f.idFatura))!;
    clientOf(sb, org.apiKey).emitNfse(invoice.idFatura);
    await sb.clearLog();

    o.clock.now = NOW + 5 * 60_000;
    run(o, { competencia: COMP, companies, onlyChanged: true });
    const log = await sb.requestLog();
    const full = log.filter((e) => !isCheck(e) && e.status === 200);
    const changed = new Set([org.name, ...touchedCompanies.map((x) => x.company.name)]);
    expect(new Set(full.map((e) => e.org))).toEqual(changed);
    const still = (x: { name: string; revoked?: boolean }) => !changed.has(x.name) && !x.revoked;
    for (const other of sb.orgs.filter(still)) expect(log.filter((e) => e.org === other.name).length, other.name).toBe(3);
    companies.forEach((c, i) => {
      if (i > 0 && still(sb.orgs[i])) expect(o.doc.get(`faturamento.central.empresa.${central.find(COMP, c)!.id}`), c.name).toBe(keep[i - 1]);
    });
    for (const { company } of touchedCompanies) {
      const want = figureColumns(await expectedMonth(sb, company.name, COMP));
      for (const [header, value] of Object.entries(want)) expect(rowsOf(o).get(company.name)?.[header], `${company.name}: ${header}`).toBeCloseTo(value, 9);
    }

    const got = rowsOf(o);
    const e = await expectedMonth(sb, org.name, COMP);
    for (const [header, want] of Object.entries(figureColumns(e))) expect(got.get(org.name)?.[header], header).toBeCloseTo(want, 9);
    expect(got.get(org.name)?.['Conferida por']).toMatch(
      /^Conferência desfeita: 1 NFS-e emitida nova, 1 nota a emitir a menos.* desde 22\/11 23:50 \(conferida por contadora@example\.com\)\.$/,
    );
    expect(got.get(sb.orgs[1].name)?.['Conferida por']).toBe(user.email);
    expect(got.get(sb.orgs[1].name)?.['Conferida em']).toEqual(new Date(NOW));
    expect(reviews.find(central.find(COMP, companies[0])!.id)).toBeNull();
    expect(centralSummary(o.deps)!.companies[0].undone).toBe(got.get(org.name)?.['Conferida por']);
  });

  it('reads every company in full on the first refresh of a new day', async () => {
    await sb.reset();
    const o = office(sb);
    run(o, { competencia: COMP, companies, onlyChanged: false });
    await sb.clearLog();
    o.clock.now = NOW + 60 * 60_000;
    run(o, { competencia: COMP, companies, onlyChanged: true });
    const log = await sb.requestLog();
    expect(log.filter(isCheck)).toEqual([]);
    expect(new Set(log.map((e) => e.org))).toEqual(new Set(sb.orgs.map((x) => x.name)));
  });
});
