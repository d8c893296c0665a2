/**
 * The Central do escritório through the real bundle: an office of ten client
 * companies (one of each status the sandbox seeds, one whose key is revoked),
 * each its own connection of the accountant. The refresh goes on by itself to
 * the end from the sidebar's steps; each row of the "Central" sheet holds what
 * this test works out from the sandbox's own records, to the cent; a review is
 * the reviewer's; a paused company's schedules say so; a colleague acts only
 * with their own connections; a company's Fechamento is found once built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../dev/gas/execution';
import type { GasEmulator } from '../../dev/gas/runner';
import { borrowSandbox, type SandboxHandle } from '../../dev/sandbox/harness';
import { expectedMonth } from '../core/central/office';
import { emulator, ok } from './helpers';

type Rec = Record<string, any>;
let sb: SandboxHandle;
let emu: GasEmulator;
const COMP = '10/2026';
const ME = 'contadora@escritorio.com.br';
const COLLEAGUE = 'assistente@escritorio.com.br';

/** The office's companies: the sandbox's, after its three demo organizations. */
const office = () => sb.orgs.filter((o) => o.office);

function connectOffice(user: string, orgs: typeof sb.orgs): void {
  for (const o of orgs) {
    const r = emu.run('saveConnection', [{ name: o.name, baseUrl: sb.baseUrl, apiKey: o.apiKey }], { user }) as Rec;
    if (!r.ok) throw new Error(`saveConnection ${o.name}: ${r.message}`);
  }
}

/** The sidebar's loop: start, then each next step until the refresh says it finished; how many calls it took. */
function refresh(user = ME, hourly = false, at?: Date): { steps: number; last: Rec } {
  let p = ok(emu.run('startCentralRefresh', [{ competencia: COMP, hourly }], { user, at }));
  let steps = 1;
  while (!p.finished) {
    p = ok(emu.run('continueCentralRefresh', [], { user }));
    if (++steps > 50) throw new Error('the refresh never finished');
  }
  return { steps, last: p };
}

/** The Central sheet's rows by company name, keyed by header. */
function rows(): Map<string, Rec> {
  const values = emu.values('Central') as unknown[][];
  const at = values.findIndex((r) => r[0] === 'Empresa');
  const header = values[at] as string[];
  const out = new Map<string, Rec>();
  for (const r of values.slice(at + 1)) if (r[0]) out.set(String(r[0]), Object.fromEntries(header.map((h, i) => [h, r[i]])));
  return out;
}

const cents = (v: unknown) => Math.round(Number(v) * 100);

/** Her refresh left between two steps: saved, no company read yet, as a start killed at its first wave leaves it. */
function unfinishedStart(at: number): void {
  const killAtFirstWave = (c: ServiceCall) => {
    if (c.object.startsWith('UrlFetch') && c.method === 'fetchAll' && (c.args[0] as unknown[]).length > 2) c.execution.killed = true;
  };
  expect(() => emu.run('startCentralRefresh', [{ competencia: COMP }], { user: ME, at: new Date(at), onServiceCall: killAtFirstWave })).toThrow(
    /Exceeded maximum execution time/,
  );
  expect((emu.run('getCentral', [], { user: ME }) as Rec).running).toMatchObject({ done: 0, finished: false });
}

beforeAll(async () => {
  sb = await borrowSandbox({ seed: 1, size: 'small', office: 10 });
  emu = emulator({ user: ME });
  connectOffice(ME, office());
}, 60_000);
afterAll(async () => {
  await sb?.stop();
});

describe('Central do escritório', () => {
  it('says before its first refresh that it has not read the companies yet, not that there is no connection', () => {
    const first = emu.run('getCentral', [], { user: ME }) as Rec;
    expect(first.companies).toEqual([]);
    expect(first.empty).toMatch(/^Nenhuma empresa lida ainda: clique em Atualizar a Central/);
  });

  it('reads every company through its own connection, and each row holds its month to the cent', async () => {
    const { last } = refresh();
    expect(last.message).toMatch(
      /^Central atualizada: 10 empresas na competência 10\/2026\..* 1 empresa ficou sem números \(falha na conexão ou leitura incompleta\)/,
    );
    // The revoked key fails its company only.
    expect(last.failed).toBe(1);
    const sheet = rows();
    expect(sheet.size).toBe(11);
    for (const o of office()) {
      const row = sheet.get(o.name)!;
      expect(row, o.name).toBeDefined();
      if (o.office!.status === 'falha-conexao') {
        // A refused key tells no organization either: the row has the company's name and why it failed.
        expect(row.Status).toMatch(/^Falha na conexão: .*401/);
        expect(row['Faturas (qtde)']).toBe('');
        continue;
      }
      expect(row['Organização (CNPJ)']).toMatch(/^\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/);
      expect(String(row['Organização (CNPJ)']).replace(/\D/g, '')).toBe(o.office!.cnpj);
      const want = await expectedMonth(sb, o.name, COMP);
      expect([row['Faturas (qtde)'], cents(row['Faturas (valor)'])], o.name).toEqual([want.invoices.count, want.invoices.cents]);
      expect([row['NFS-e emitidas (qtde)'], cents(row['NFS-e emitidas (valor dos serviços)'])]).toEqual([want.notesIssued.count, want.notesIssued.cents]);
      expect([row['NFS-e a emitir (qtde)'], cents(row['NFS-e a emitir (valor)'])]).toEqual([want.notesMissing.count, want.notesMissing.cents]);
      expect([cents(row['ISS retido']), cents(row['ISS a recolher'])]).toEqual([want.issRetido, want.issDue]);
      expect([row['Cobranças em aberto (qtde)'], cents(row['Cobranças em aberto (valor)'])]).toEqual([want.chargesOpen.count, want.chargesOpen.cents]);
      expect([row['Cobranças vencidas (qtde)'], cents(row['Cobranças vencidas (valor)'])]).toEqual([want.chargesOverdue.count, want.chargesOverdue.cents]);
      expect(row.Divergências).toBe(want.divergences);
    }
    const status = (s: string) => sheet.get(office().find((o) => o.office!.status === s)!.name)!.Status;
    expect(status('sem-pendencias')).toBe('Sem pendências');
    expect(status('notas-a-emitir')).toBe('Pendências: 3 notas a emitir');
    expect(status('vencidas')).toBe('Pendências: 2 cobranças vencidas');
    expect(status('sem-movimento')).toMatch(/^Sem movimento/);
    // Money as money, counts as whole numbers.
    const formats = emu.numberFormats('Central') as string[][];
    const header = (emu.values('Central') as unknown[][]).findIndex((r) => r[0] === 'Empresa');
    const col = (name: string) => (emu.values('Central')[header] as string[]).indexOf(name);
    expect(formats[header + 1][col('Faturas (valor)')]).toMatch(/0[.,]00/);
    expect(formats[header + 1][col('Faturas (qtde)')]).toMatch(/^#?,?#*0$|^0$/);
  });

  it("lists in the sidebar each company with its status, and a review is signed in the reviewer's name", () => {
    const view = emu.run('getCentral', [], { user: ME }) as Rec;
    expect(view.competencia).toBe(COMP);
    expect(view.companies).toHaveLength(10);
    const clean = view.companies.find((c: Rec) => c.status === 'Sem pendências');
    expect(clean.reviewable).toBe(true);
    const failed = view.companies.find((c: Rec) => /^Falha na conexão/.test(c.status));
    expect(failed.tone).toBe('error');
    expect(failed.reviewable).toBe(false);
    const after = ok(emu.run('markCompanyReviewed', [clean.connectionId, true], { user: ME }));
    const marked = after.companies.find((c: Rec) => c.connectionId === clean.connectionId);
    expect(marked.reviewedBy).toBe(ME);
    expect(rows().get(clean.name)!['Conferida por']).toBe(ME);
    // A company that failed has no month to review.
    expect((emu.run('markCompanyReviewed', [failed.connectionId, true], { user: ME }) as Rec).ok).toBe(false);
  });

  it("clears a review when the company's month changes, and says why", async () => {
    const view = emu.run('getCentral', [], { user: ME }) as Rec;
    const marked = view.companies.find((c: Rec) => c.reviewedBy);
    const org = office().find((o) => o.name === marked.name)!;
    await sb.touch({ org: org.name, kind: 'addInvoice' });
    refresh();
    const again = (emu.run('getCentral', [], { user: ME }) as Rec).companies.find((c: Rec) => c.connectionId === marked.connectionId);
    expect(again.reviewedBy).toBeNull();
    expect(again.unreviewed).toMatch(/^Conferência desfeita: .*fatura/);
    expect(rows().get(marked.name)!['Conferida por']).toMatch(/^Conferência desfeita/);
  });

  it('refuses to sign a review over figures read again since the sidebar showed them', async () => {
    const shown = (emu.run('getCentral', [], { user: ME }) as Rec).companies.find((c: Rec) => c.status === 'Pendências: 3 notas a emitir');
    // One of its notes is issued, and a refresh (the hourly run's, a colleague's) reads it before she clicks.
    await sb.touch({ org: shown.name, kind: 'addNote' });
    refresh();
    const stale = emu.run('markCompanyReviewed', [shown.connectionId, true, shown.seen], { user: ME }) as Rec;
    expect(stale.ok).toBe(false);
    expect(stale.message).toMatch(/foram lidos de novo depois que a barra lateral os mostrou: confira a linha da empresa na aba Central/);
    const now = (emu.run('getCentral', [], { user: ME }) as Rec).companies.find((c: Rec) => c.connectionId === shown.connectionId);
    expect(now.reviewedBy).toBeNull();
    expect(now.seen).not.toBe(shown.seen);
    // Over the figures she now sees, it is signed.
    const signed = ok(emu.run('markCompanyReviewed', [shown.connectionId, true, now.seen], { user: ME }));
    expect(signed.companies.find((c: Rec) => c.connectionId === shown.connectionId).reviewedBy).toBe(ME);
  });

  it("pauses and resumes a company's schedules from its row", () => {
    const view = emu.run('getCentral', [], { user: ME }) as Rec;
    const c = view.companies[0];
    const paused = ok(emu.run('setCompanyPaused', [c.connectionId, true], { user: ME }));
    expect(paused.companies.find((x: Rec) => x.connectionId === c.connectionId).paused).toBe(true);
    const resumed = ok(emu.run('setCompanyPaused', [c.connectionId, false], { user: ME }));
    expect(resumed.companies.find((x: Rec) => x.connectionId === c.connectionId).paused).toBe(false);
  });

  it('lets a colleague see the sheet but act only with their own connections', () => {
    const mine = (emu.run('getCentral', [], { user: ME }) as Rec).companies[0];
    // The colleague has one company of the office, through a connection of their own.
    connectOffice(COLLEAGUE, [office()[0]]);
    const theirs = emu.run('getCentral', [], { user: COLLEAGUE }) as Rec;
    expect(theirs.companies.map((c: Rec) => c.connectionId)).not.toContain(mine.connectionId);
    for (const call of [
      ['markCompanyReviewed', [mine.connectionId, true]],
      ['setCompanyPaused', [mine.connectionId, true]],
      ['openCompanyClosing', [mine.connectionId, COMP]],
      ['runCompanyReports', [mine.connectionId]],
    ] as const) {
      const r = emu.run(call[0], [...call[1]], { user: COLLEAGUE }) as Rec;
      expect(r.ok, call[0]).toBe(false);
      expect(r.message).toMatch(/não é de uma conexão sua/);
    }
    // Their own refresh reads their company only, and the rows say whose refresh it was.
    refresh(COLLEAGUE);
    expect([...rows().keys()]).toEqual([office()[0].name, expect.stringMatching(/^Total/)]);
    // Her sidebar lists none of the colleague's companies, and says why rather than that she has no connection.
    const hers = emu.run('getCentral', [], { user: ME }) as Rec;
    expect(hers.companies).toEqual([]);
    expect(hers.empty).toMatch(/^A última atualização da Central é de assistente@escritorio\.com\.br.*Atualizar a Central/);
    const head = (emu.values('Central') as unknown[][]).map((r) => String(r[0])).join('\n');
    expect(head).toContain(COLLEAGUE);
  });

  it("opens a company's Fechamento when there is one, and says how to build it when there is none", () => {
    refresh();
    const c = (emu.run('getCentral', [], { user: ME }) as Rec).companies.find((x: Rec) => x.status === 'Sem pendências');
    const none = ok(emu.run('openCompanyClosing', [c.connectionId, COMP], { user: ME }));
    expect(none).toEqual({ build: { connection: c.name, competencia: COMP, company: c.name } });
    // Built as the sidebar does: its three reports from the company's connection, then the panel.
    const ids = (['faturas', 'nfse', 'cobrancas'] as const).map((listing) => {
      const name = `Fechamento 10-2026 · ${listing} · ${c.name}`.slice(0, 90);
      const filters = listing === 'cobrancas' ? { isExibeCanceladas: true } : { competencia: COMP };
      const started = ok(
        emu.run('startImportRun', [{ connection: c.name, listing, filters, sheetName: name, name, incremental: false, newSheet: true }], { user: ME }),
      );
      let p = started;
      while (!p.done) p = emu.run('continueReportRun', [p.reportId], { user: ME }) as Rec;
      expect(p.status).toBe('done');
      return p.reportId as string;
    });
    const made = ok(
      emu.run('createDashboard', [{ kind: 'fechamento', reportId: ids[0], secondReportId: ids[1], chargesReportId: ids[2], competencia: COMP }], { user: ME }),
    );
    const found = ok(emu.run('openCompanyClosing', [c.connectionId, COMP], { user: ME }));
    expect(found).toEqual({ sheetName: made.sheetName });
    // Its reports are the company's reports here, to run now.
    const run = ok(emu.run('runCompanyReports', [c.connectionId], { user: ME }));
    expect(run.here.map((r: Rec) => r.id).sort()).toEqual([...ids].sort());
    // The Central's row now links to this spreadsheet, where the company has reports.
    refresh();
    const link = emu.withServices((s) => {
      const sheet = s.SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Central')!;
      const values = sheet.getDataRange().getValues();
      const header = values.findIndex((r) => r[0] === 'Empresa');
      const row = values.findIndex((r) => r[0] === c.name);
      const rich = sheet.getRange(row + 1, values[header].indexOf('Planilhas') + 1).getRichTextValue()!;
      return { text: rich.getText(), url: rich.getLinkUrl() };
    });
    const id = emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getId());
    expect(link).toEqual({
      text: emu.withServices((s) => s.SpreadsheetApp.getActiveSpreadsheet().getName()),
      url: `https://docs.google.com/spreadsheets/d/${id}/edit`,
    });
  });
  it("leaves her refresh going on to her: a colleague's hourly run waits for the next hour", () => {
    const start = emu.now;
    refresh(COLLEAGUE, true, new Date(start));
    unfinishedStart(start + 55 * 60_000);
    // The colleague's hourly run comes between two of her steps.
    expect(emu.runDueTriggers(new Date(start + 65 * 60_000)).length).toBeGreaterThan(0);
    let p: Rec = { finished: false };
    while (!p.finished) p = ok(emu.run('continueCentralRefresh', [], { user: ME }));
    expect(p.message).toMatch(/^Central atualizada: 10 empresas/);
    expect((emu.run('getCentral', [], { user: ME }) as Rec).companies).toHaveLength(10);
  });

  it('says that her refresh stopped when another replaced it, never that it was done', () => {
    const start = emu.now + 60_000;
    unfinishedStart(start);
    // Left halfway long enough that it is no longer hers alone: the colleague refreshes with their own connections.
    refresh(COLLEAGUE, false, new Date(start + 15 * 60_000));
    const next = emu.run('continueCentralRefresh', [], { user: ME }) as Rec;
    expect(next.ok).toBe(false);
    expect(next.message).toMatch(/^assistente@escritorio\.com\.br atualizou a Central depois que você começou.*Atualizar a Central/);
  });
});
