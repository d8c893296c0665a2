/**
 * What a report's pull asks for, case by case: a saved report and what its run
 * knows (the day, the zones, the sheet as the run's one look found it, the
 * owner's connections and the organizations they reach) against the spec the
 * run begins from. The sheets are laid out by a real start of an earlier pull,
 * so "intact" means what a run left behind.
 */
import { describe, expect, it } from 'vitest';
import { intlZone } from '../../../src/api/calendar';
import type { Organization } from '../../../src/core/connections/organizations';
import { lookAtSheet } from '../../../src/core/pull/start';
import type { ImportSpec } from '../../../src/core/pull/state';
import type { Report } from '../../../src/core/reports/reports';
import { planPull } from '../../../src/core/runs/plan-pull';
import { LISTING_TAG } from '../../../src/core/sheets/sheet-layout';
import { startDeps, startLooked } from '../pull/world';

/** 22/11/2026 12:00 in São Paulo, 15:00 in Lisbon. */
const T0 = Date.UTC(2026, 10, 22, 15);
const HOUR = 3_600_000;
const SHEET = 'Relatório';

const alfa: Organization = { key: '1:12345678000199', name: 'Alfa Ltda', document: '12345678000199', own: true };
const beta: Organization = { key: '1:98765432000110', name: 'Beta SA', document: '98765432000110', own: true };

/** How the report's sheet stands when the run looks at it. */
type SheetState =
  /** No sheet yet: the run makes it. */
  | 'none'
  /** As an earlier run of this report laid it out, found by the report's sheet id. */
  | 'laid out'
  /** Laid out, but the report never ran: found by its name only. */
  | 'found by name'
  /** Laid out, then the user deleted one of our columns. */
  | 'a column lost'
  /** Laid out, but its metadata says it holds another listing. */
  | 'another listing'
  /** Laid out by a one-company run (no Empresa columns). */
  | 'laid out for one company'
  /** Laid out by a run that did not want card columns. */
  | 'laid out without card columns';

interface Case {
  name: string;
  report: Partial<Report>;
  sheet?: SheetState;
  at?: number;
  full?: boolean;
  /** The owner's connections now, by id (named "Empresa <id>"). */
  connections?: string[];
  /** The organization each connection reaches, as its last test found it; absent: not told. */
  organizations?: Record<string, Organization | undefined>;
  /** The time zone of each connection's service, by the connection's name; absent: not told. */
  serviceZones?: Record<string, string>;
  /** The spec, less what always comes from the report (listing, sheet, report id). */
  spec: Omit<ImportSpec, 'listing' | 'sheetName' | 'sheetId' | 'reportId'>;
  notes?: string[];
  /** The organizations the report keeps for its dashboards. */
  organizationsRead?: Organization[];
  /** Which organizations were asked for, and whether the service could be asked (more than one company). */
  asked?: Array<[string, boolean]>;
}

const company = (id: string, filters: ImportSpec['filters'], mode: 'merge' | 'replace', name = `Empresa ${id}`) => ({ id, name, filters, mode });

const cases: Case[] = [
  {
    name: 'a first run asks for the saved filters as they are and replaces whatever the sheet holds',
    report: { filters: { isListarItens: true, numero: 7, idIntegracao: 'FAT-1', ids: [1, 2] } },
    spec: { filters: { isListarItens: true, numero: 7, idIntegracao: 'FAT-1', ids: [1, 2] }, mode: 'replace' },
  },
  {
    name: 'relative dates ("hoje", "mês") count from the spreadsheet\'s day: at 23:30 in São Paulo it is still 31 January',
    at: Date.UTC(2026, 1, 1, 2, 30),
    report: {
      filters: {
        dataInicial: { rel: 'hoje', dias: -30 },
        dataFinal: { rel: 'hoje', dias: 0 },
        amanha: { rel: 'hoje', dias: 1 },
        competencia: { rel: 'mes', meses: -1 },
        atual: { rel: 'mes', meses: 0 },
      },
    },
    spec: {
      filters: { dataInicial: '2026-01-01', dataFinal: '2026-01-31', amanha: '2026-02-01', competencia: '12/2025', atual: '01/2026' },
      mode: 'replace',
    },
  },
  {
    name: "an incremental report asks only what changed since its last good start less ten minutes, on the service's clock, and merges into its sheet",
    report: { incremental: true, lastSuccessStart: T0 - HOUR, filters: { isListarItens: true } },
    sheet: 'laid out',
    spec: { filters: { isListarItens: true, dataHoraAtualizacaoInicial: '22/11/2026 10:50' }, mode: 'merge' },
  },
  {
    name: "the stamp is read on the clock of the connection's own service (Lisbon, three hours ahead)",
    report: { incremental: true, lastSuccessStart: T0 - HOUR },
    sheet: 'laid out',
    serviceZones: { 'Empresa k1': 'Europe/Lisbon' },
    spec: { filters: { dataHoraAtualizacaoInicial: '22/11/2026 13:50' }, mode: 'merge' },
  },
  {
    name: 'an incremental report whose sheet lost a column of ours is pulled whole, which rebuilds it',
    report: { incremental: true, lastSuccessStart: T0 - HOUR },
    sheet: 'a column lost',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'a sheet found only by its name, for a report that never ran, is never merged into',
    report: { incremental: true, lastSuccessStart: T0 - HOUR },
    sheet: 'found by name',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'a sheet whose metadata says it holds another listing is pulled whole',
    report: { incremental: true, lastSuccessStart: T0 - HOUR },
    sheet: 'another listing',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'a sheet the report had and the user deleted is pulled whole into the sheet the run makes again',
    report: { incremental: true, lastSuccessStart: T0 - HOUR, sheetId: 9999 },
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: '"Atualização completa" pulls an incremental report whole this once',
    report: { incremental: true, lastSuccessStart: T0 - HOUR, filters: { isListarItens: true } },
    sheet: 'laid out',
    full: true,
    spec: { filters: { isListarItens: true }, mode: 'replace' },
  },
  {
    name: 'an incremental report that never succeeded asks for everything',
    report: { incremental: true },
    sheet: 'laid out',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'a report not incremental is pulled whole, however intact its sheet',
    report: { lastSuccessStart: T0 - HOUR },
    sheet: 'laid out',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'a listing without update stamps (customers) is always pulled whole',
    report: { listing: 'clientes', incremental: true, lastSuccessStart: T0 - HOUR },
    sheet: 'laid out',
    spec: { filters: {}, mode: 'replace' },
  },
  {
    name: 'an incremental report that now wants card columns is pulled whole into its sheet laid out without them',
    report: { listing: 'clientes', incremental: true, lastSuccessStart: T0 - HOUR, cardData: true },
    sheet: 'laid out without card columns',
    spec: { filters: {}, mode: 'replace', cardData: true },
  },
  {
    name: 'a consolidated report asks each company since its own last good pull, and merges when every one can',
    report: {
      incremental: true,
      lastSuccessStart: T0 - HOUR,
      companies: { all: false, ids: ['k1', 'k2'] },
      companyStamps: { k1: T0 - HOUR, k2: T0 - 2 * HOUR },
      filters: { isListarItens: true },
    },
    sheet: 'laid out',
    connections: ['k1', 'k2'],
    spec: {
      filters: { isListarItens: true },
      mode: 'merge',
      companies: [
        company('k1', { isListarItens: true, dataHoraAtualizacaoInicial: '22/11/2026 10:50' }, 'merge'),
        company('k2', { isListarItens: true, dataHoraAtualizacaoInicial: '22/11/2026 09:50' }, 'merge'),
      ],
    },
  },
  {
    name: "each company reads its stamp on its own service's clock",
    report: { incremental: true, companies: { all: false, ids: ['k1', 'k2'] }, companyStamps: { k1: T0 - HOUR, k2: T0 - HOUR } },
    sheet: 'laid out',
    connections: ['k1', 'k2'],
    serviceZones: { 'Empresa k2': 'Europe/Lisbon' },
    spec: {
      filters: {},
      mode: 'merge',
      companies: [
        company('k1', { dataHoraAtualizacaoInicial: '22/11/2026 10:50' }, 'merge'),
        company('k2', { dataHoraAtualizacaoInicial: '22/11/2026 13:50' }, 'merge'),
      ],
    },
  },
  {
    name: 'a company with no stamp yet (added since) comes in full, and the sheet is then replaced',
    report: { incremental: true, lastSuccessStart: T0 - HOUR, companies: { all: false, ids: ['k1', 'k2'] }, companyStamps: { k1: T0 - HOUR } },
    sheet: 'laid out',
    connections: ['k1', 'k2'],
    spec: {
      filters: {},
      mode: 'replace',
      companies: [company('k1', { dataHoraAtualizacaoInicial: '22/11/2026 10:50' }, 'merge'), company('k2', {}, 'replace')],
    },
  },
  {
    name: 'a consolidated report into a sheet laid out for one company (no Empresa columns) pulls every company in full',
    report: { incremental: true, companies: { all: false, ids: ['k1', 'k2'] }, companyStamps: { k1: T0 - HOUR, k2: T0 - HOUR } },
    sheet: 'laid out for one company',
    connections: ['k1', 'k2'],
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace'), company('k2', {}, 'replace')] },
  },
  {
    name: '"todas as minhas conexões" are the owner\'s connections at this run',
    report: { companies: { all: true, ids: [] } },
    connections: ['k1', 'k2', 'k3'],
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace'), company('k2', {}, 'replace'), company('k3', {}, 'replace')] },
  },
  {
    name: 'a connection chosen twice is pulled once; one the owner no longer has stays, named as gone, to fail alone',
    report: { companies: { all: false, ids: ['k1', 'k9', 'k1'] } },
    connections: ['k1'],
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace'), company('k9', {}, 'replace', 'conexão k9 (não existe mais)')] },
  },
  {
    name: "without the owner's connections at hand, each connection the report names is still pulled, named as gone, to fail alone",
    report: { companies: { all: false, ids: ['k1', 'k2'] } },
    spec: {
      filters: {},
      mode: 'replace',
      companies: [company('k1', {}, 'replace', 'conexão k1 (não existe mais)'), company('k2', {}, 'replace', 'conexão k2 (não existe mais)')],
    },
  },
  {
    name: 'without the owner\'s connections at hand, "todas as minhas conexões" is none',
    report: { companies: { all: true, ids: [] } },
    spec: { filters: {}, mode: 'merge', companies: [] },
  },
  {
    name: 'two connections that reach one organization: it is read once, by the first, the run says so, and each organization counts once',
    report: { companies: { all: true, ids: [] } },
    connections: ['k1', 'k2', 'k3'],
    organizations: { k1: alfa, k2: alfa, k3: beta },
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace'), company('k3', {}, 'replace')] },
    notes: [
      'As conexões "Empresa k1" e "Empresa k2" chegam à mesma organização ("Alfa Ltda" (CNPJ 12.345.678/0001-99)): ela foi contada uma vez só, pela conexão "Empresa k1".',
    ],
    organizationsRead: [alfa, beta],
    asked: [
      ['k1', true],
      ['k2', true],
      ['k3', true],
    ],
  },
  {
    name: 'an organization that cannot be told is kept apart, and the report then names no organization',
    report: { companies: { all: false, ids: ['k1', 'k2'] } },
    connections: ['k1', 'k2'],
    organizations: { k1: alfa },
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace'), company('k2', {}, 'replace')] },
    asked: [
      ['k1', true],
      ['k2', true],
    ],
  },
  {
    name: 'a consolidated report of one connection never asks the service which organization it reaches',
    report: { companies: { all: false, ids: ['k1'] } },
    connections: ['k1'],
    organizations: { k1: alfa },
    spec: { filters: {}, mode: 'replace', companies: [company('k1', {}, 'replace')] },
    organizationsRead: [alfa],
    asked: [['k1', false]],
  },
  {
    name: 'a consolidated report whose owner has no connection left asks no company for anything, and names no organization',
    report: { companies: { all: true, ids: [] } },
    connections: [],
    organizations: {},
    spec: { filters: {}, mode: 'merge', companies: [] },
    asked: [],
  },
  {
    name: 'a report saved before owners names no connection: nothing is known of its organization',
    report: { connectionId: undefined },
    organizations: { k1: alfa },
    spec: { filters: {}, mode: 'replace' },
    asked: [['', false]],
  },
  {
    name: "a one-company report reads its connection's organization as its last test found it, never asking the service",
    report: {},
    organizations: { k1: alfa },
    spec: { filters: {}, mode: 'replace' },
    organizationsRead: [alfa],
    asked: [['k1', false]],
  },
  {
    name: '"Filtros na planilha" become the day\'s conditions: days and months as dates, months of a competência as months, a yes/no column by what its cell shows',
    report: {
      listing: 'nfse',
      sheetFilters: [
        { field: 'dataEmissao', op: 'relativo', rel: { unit: 'dias', de: -7, ate: 0 } },
        { field: 'dataEmissao', op: 'relativo', rel: { unit: 'meses', de: -1, ate: -1 } },
        { field: 'competencia', op: 'relativo', rel: { unit: 'meses', de: -2, ate: 0 } },
        { field: 'dataEmissao', op: 'relativo' },
        { field: 'issRetido', op: 'igual', values: ['Sim'] },
        { field: 'razaoSocial', op: 'preenchido' },
      ],
    },
    spec: {
      filters: {},
      mode: 'replace',
      sheetFilters: [
        { field: 'dataEmissao', op: 'entre', from: '2026-11-15', to: '2026-11-22' },
        { field: 'dataEmissao', op: 'entre', from: '2026-10-01', to: '2026-10-31' },
        { field: 'competencia', op: 'entre', from: '09/2026', to: '11/2026' },
        { field: 'dataEmissao', op: 'entre', from: '2026-11-22', to: '2026-11-22' },
        { field: 'issRetido', op: 'igual', values: ['Sim'], codes: { 0: false, 2: true } },
        { field: 'razaoSocial', op: 'preenchido' },
      ],
    },
  },
  {
    name: 'a relative month of sheet filters ends on the last day of its month, across the year',
    at: Date.UTC(2026, 0, 15, 15),
    report: { listing: 'nfse', sheetFilters: [{ field: 'dataEmissao', op: 'relativo', rel: { unit: 'meses', de: -2, ate: -1 } }] },
    spec: { filters: {}, mode: 'replace', sheetFilters: [{ field: 'dataEmissao', op: 'entre', from: '2025-11-01', to: '2025-12-31' }] },
  },
];

/** The report's sheet as `state` says, laid out by a real start of an earlier pull; its id when the report knows it. */
function sheetFor(report: Report, state: SheetState, deps: ReturnType<typeof startDeps>): number | undefined {
  if (state === 'none') return report.sheetId;
  const consolidated = state !== 'laid out for one company' && report.companies !== undefined;
  const cardData = state !== 'laid out without card columns' && report.cardData;
  const laid = startLooked(
    { listing: report.listing, filters: {}, sheetName: SHEET, mode: 'replace', ...(consolidated ? { companies: [] } : {}), ...(cardData ? { cardData } : {}) },
    deps,
  );
  const sheet = deps.book.watched(laid.sheetId);
  if (state === 'a column lost') sheet.columns.delete([...sheet.columns.keys()][3]);
  if (state === 'another listing') sheet.setSheetTag(LISTING_TAG, 'nfse');
  return state === 'found by name' ? undefined : sheet.id;
}

function planned(c: Case) {
  const deps = startDeps();
  const given: Report = {
    id: 'rel1',
    name: 'Relatório',
    listing: 'faturas',
    connection: 'Empresa k1',
    connectionId: 'k1',
    filters: {},
    sheetName: SHEET,
    incremental: false,
    schedule: null,
    notifyByEmail: false,
    createdAt: 0,
    ...c.report,
  };
  const report = { ...given, sheetId: sheetFor(given, c.sheet ?? 'none', deps) };
  const asked: Array<[string, boolean]> = [];
  const zones = c.serviceZones;
  const plan = planPull(report, {
    at: c.at ?? T0,
    zone: intlZone('America/Sao_Paulo'),
    sheet: lookAtSheet(deps.book, report, { consolidated: Boolean(report.companies), cardData: report.cardData }),
    full: c.full,
    ...(zones ? { serviceZone: (name: string) => intlZone(zones[name] ?? 'America/Sao_Paulo') } : {}),
    ...(c.connections ? { connections: () => (c.connections ?? []).map((id) => ({ id, name: `Empresa ${id}` })) } : {}),
    ...(c.organizations
      ? {
          organizationOf: (id: string, identify: boolean) => {
            asked.push([id, identify]);
            return c.organizations?.[id];
          },
        }
      : {}),
  });
  return { report, plan, asked };
}

describe('what a pull asks for', () => {
  it.each(cases)('$name', (c) => {
    const { report, plan, asked } = planned(c);
    expect(plan.spec).toEqual({ listing: report.listing, sheetName: SHEET, sheetId: report.sheetId, reportId: 'rel1', ...c.spec });
    expect(plan.notes).toEqual(c.notes ?? []);
    expect(plan.organizations).toEqual(c.organizationsRead);
    if (c.asked) expect(asked).toEqual(c.asked);
  });

  it('asks for the connections only of a consolidated report, and for each organization once', () => {
    const deps = startDeps();
    let listed = 0;
    const asked: string[] = [];
    const facts = {
      at: T0,
      zone: intlZone('America/Sao_Paulo'),
      sheet: lookAtSheet(deps.book, { listing: 'faturas', sheetName: SHEET }),
      connections: () => {
        listed += 1;
        return [{ id: 'k1', name: 'Empresa k1' }];
      },
      organizationOf: (id: string) => {
        asked.push(id);
        return alfa;
      },
    };
    const one = { ...planned(cases[0]).report, sheetId: undefined };
    planPull(one, facts);
    expect([listed, asked]).toEqual([0, ['k1']]);
    planPull({ ...one, companies: { all: true, ids: [] } }, facts);
    expect([listed, asked]).toEqual([1, ['k1', 'k1']]);
  });
});
