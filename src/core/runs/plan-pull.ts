/**
 * What a report's next pull asks for, decided here and nowhere else: its
 * saved filters on the run's day (relative dates resolved), since when an
 * incremental pull asks (per company in a consolidated one), merge or replace
 * from the run's one look at the sheet, a consolidated report's companies with
 * each organization once, and its "Filtros na planilha" as that day's
 * conditions. It writes nothing: a run begins from the spec it returns, and
 * the hourly check of an unchanged sheet asks what the run would.
 */
import { addDays, addMonths, brDateTime, competencia, type Day, intlZone, isoDate, type Zone } from '../../api/calendar';
import type { FilterValues } from '../../api/filters';
import { listing } from '../../api/operations';
import { describeOrganization, distinctOrganizations, type Organization } from '../connections/organizations';
import type { SheetLook } from '../pull/start';
import type { CompanySpec, ImportSpec } from '../pull/state';
import { type Companies, type RelativeValue, type Report, type SavedFilterValue, SERVICE_TIME_ZONE } from '../reports/reports';
import type { SheetCondition, SheetFilter } from '../sheets/sheet-filters';
import { type Column, tableSpec } from '../sheets/table';

/** What the plan is told of the run: when, in which zones, the sheet as the run found it, the owner's connections. */
export interface PullFacts {
  /** When the run starts (epoch ms): relative dates count from its day in `zone`. */
  at: number;
  /** The spreadsheet's zone. */
  zone: Zone;
  /** The zone a connection's service reads date-times in, by the connection's name; America/Sao_Paulo when not told. */
  serviceZone?: (connectionName: string) => Zone;
  /** The report's sheet as the run's one look found it, for this report's columns. */
  sheet: Pick<SheetLook, 'intact'>;
  /** The owner's connections now: what a consolidated report's "todas" means at this run. */
  connections?: () => ReadonlyArray<{ id: string; name: string }>;
  /** The organization a connection of the owner reaches; `identify`: asked of the service when none is known. */
  organizationOf?: (connectionId: string, identify: boolean) => Organization | undefined;
  /** "Atualização completa": an incremental report pulled whole this once, staying incremental after. */
  full?: boolean;
}

export interface PullPlan {
  spec: ImportSpec;
  /** What the run tells about its companies: two connections that reach one organization. */
  notes: string[];
  /** The organizations the pull reads, when every one is known; undefined when any is not (nothing can be compared then). */
  organizations?: Organization[];
}

function isRelative(v: SavedFilterValue): v is RelativeValue {
  return typeof v === 'object' && !Array.isArray(v) && 'rel' in v;
}

/** A report's saved filters as a run at `now` asks them: "hoje − 90 dias" and "mês atual" become that day's date and competência. */
export function resolveFilters(report: Pick<Report, 'filters'>, now: Date, zone: Zone): FilterValues {
  const today = zone.wall(now);
  const out: FilterValues = {};
  for (const [name, value] of Object.entries(report.filters)) {
    if (!isRelative(value)) {
      out[name] = value;
      continue;
    }
    if (value.rel === 'hoje') {
      out[name] = isoDate(addDays(today, value.dias));
    } else {
      out[name] = competencia(addMonths(today, value.meses));
    }
  }
  return out;
}

/** What a report's last run asked for (its filters on the day it last started); today's, for a report that never ran. */
export function lastAsked(report: Report, now: number, zone: Zone): FilterValues {
  return resolveFilters(report, new Date(report.lastRun?.startedAt ?? now), zone);
}

/** The pull a run of `report` makes, from what it knows at its start. */
export function planPull(report: Report, facts: PullFacts): PullPlan {
  const day = new Date(facts.at);
  const base = resolveFilters(report, day, facts.zone);
  const asked = facts.full ? { ...report, incremental: false } : report;
  // Merging needs every column of ours where its metadata says; otherwise a full pull rebuilds them.
  const intact = facts.sheet.intact;
  const sheetFilters = resolveSheetFilters(report.sheetFilters, tableSpec(listing(report.listing)).columns, day, facts.zone);
  const spec = (filters: FilterValues, merge: boolean, companies?: CompanySpec[]): ImportSpec => ({
    listing: report.listing,
    filters,
    sheetName: report.sheetName,
    sheetId: report.sheetId,
    reportId: report.id,
    mode: merge ? 'merge' : 'replace',
    ...(sheetFilters.length ? { sheetFilters } : {}),
    ...(report.cardData ? { cardData: true } : {}),
    ...(companies ? { companies } : {}),
  });
  if (report.companies) {
    const { specs, notes, organizations } = companyPlan(asked, report.companies, base, intact, facts);
    const merge = specs.every((c) => c.mode === 'merge');
    return { spec: spec(base, merge, specs), notes, organizations };
  }
  const incremental = incrementalFilters(asked, base, serviceZone(facts, report.connection));
  const merge = incremental.merge && intact;
  return { spec: spec(merge ? incremental.filters : base, merge), notes: [], organizations: known([facts.organizationOf?.(report.connectionId ?? '', false)]) };
}

function serviceZone(facts: PullFacts, connectionName: string): Zone {
  return facts.serviceZone?.(connectionName) ?? intlZone(SERVICE_TIME_ZONE);
}

/** The organizations, when every one is known. */
function known(list: ReadonlyArray<Organization | undefined>): Organization[] | undefined {
  return list.length > 0 && list.every((o) => o !== undefined) ? (list as Organization[]) : undefined;
}

/**
 * A consolidated pull's companies: the owner's connections the report names
 * (all of them now, for "todas"), each organization once (two connections
 * that reach one are read once, by the first, and the run says so), each
 * incremental from its own last good pull when the report is and the sheet is
 * intact, else in full.
 */
function companyPlan(
  report: Report,
  companies: Companies,
  base: FilterValues,
  intact: boolean,
  facts: PullFacts,
): { specs: CompanySpec[]; notes: string[]; organizations?: Organization[] } {
  const resolved = resolveCompanies(companies, facts.connections?.() ?? []);
  const identify = resolved.length > 1;
  const { kept, skipped } = distinctOrganizations(resolved.map((c) => ({ ...c, organization: facts.organizationOf?.(c.id, identify) })));
  const notes = skipped.map(
    ({ left, used }) =>
      `As conexões "${used.name}" e "${left.name}" chegam à mesma organização (${describeOrganization(used.organization as Organization)}): ela foi contada uma vez só, pela conexão "${used.name}".`,
  );
  const specs = kept.map((c): CompanySpec => {
    const incremental = incrementalFilters({ ...report, lastSuccessStart: report.companyStamps?.[c.id] }, base, serviceZone(facts, c.name));
    const merge = incremental.merge && intact;
    return { id: c.id, name: c.name, filters: merge ? incremental.filters : base, mode: merge ? 'merge' : 'replace' };
  });
  return { specs, notes, organizations: known(kept.map((c) => c.organization)) };
}

/** The connections a consolidated report pulls at a run, from the owner's `own` connections; ids the owner no longer has stay (and fail alone). */
export function resolveCompanies(companies: Companies, own: ReadonlyArray<{ id: string; name: string }>): Array<{ id: string; name: string }> {
  if (companies.all) return own.map((c) => ({ id: c.id, name: c.name }));
  const names = new Map(own.map((c) => [c.id, c.name]));
  return [...new Set(companies.ids)].map((id) => ({ id, name: names.get(id) ?? `conexão ${id} (não existe mais)` }));
}

/** The service's update stamps are local wall time to the minute: look back a little so nothing slips between runs. */
export const INCREMENTAL_MARGIN_MS = 10 * 60_000;

/** Whether this run can be incremental, and the filters that make it so. */
export function incrementalFilters(report: Report, base: FilterValues, serviceZone: Zone): { filters: FilterValues; merge: boolean } {
  const op = listing(report.listing);
  if (!report.incremental || !op.updatedSince || report.lastSuccessStart === undefined) return { filters: base, merge: false };
  // As the service's wall clock (its stamps are in its own zone, not the spreadsheet's), and as text:
  // the job state is JSON, and a Date would come back as a UTC string.
  const since = brDateTime(serviceZone.wall(new Date(report.lastSuccessStart - INCREMENTAL_MARGIN_MS)));
  return { filters: { ...base, [op.updatedSince.from]: since }, merge: true };
}

const firstOfMonth = (d: Day, months: number): Day => ({ ...addMonths(d, months), day: 1 });
const lastOfMonth = (d: Day, months: number): Day => addDays(firstOfMonth(d, months + 1), -1);

/** The "Filtros na planilha" a run applies on `now`'s day in the spreadsheet's zone: no relative values left. */
export function resolveSheetFilters(filters: readonly SheetFilter[] | undefined, columns: readonly Column[], now: Date, zone: Zone): SheetCondition[] {
  const today = zone.wall(now);
  const kindOf = new Map(columns.map((c) => [c.key, c.cell]));
  const codesOf = new Map(columns.flatMap((c) => (c.codes ? [[c.key, c.codes] as const] : [])));
  return (filters ?? []).map((f) => {
    if (f.op !== 'relativo') {
      const codes = codesOf.get(f.field);
      return { field: f.field, op: f.op, values: f.values, from: f.from, to: f.to, ...(codes ? { codes } : {}) };
    }
    const rel = f.rel ?? { unit: 'dias', de: 0, ate: 0 };
    const competenciaField = kindOf.get(f.field) === 'text';
    if (rel.unit === 'meses' && competenciaField) {
      return { field: f.field, op: 'entre', from: competencia(addMonths(today, rel.de)), to: competencia(addMonths(today, rel.ate)) };
    }
    const [from, to] = rel.unit === 'meses' ? [firstOfMonth(today, rel.de), lastOfMonth(today, rel.ate)] : [addDays(today, rel.de), addDays(today, rel.ate)];
    return { field: f.field, op: 'entre', from: isoDate(from), to: isoDate(to) };
  });
}
