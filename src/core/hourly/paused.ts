/**
 * Companies whose schedules the user paused in the Central do escritório: a
 * set of their connections (by id) in the user's properties, so the pause
 * holds in every spreadsheet at once without opening any, and the hourly run
 * reads it with the agenda. A pause is the user's own: a colleague's reports
 * of the same company run on their own connections, untouched.
 */
import { UserError } from '../../api/user-error';
import { type KeyValueStore, readJson } from '../ports';
import type { Report } from '../reports/reports';
import { utf8Bytes } from '../trust/job-store';

const KEY = 'faturamento.pausadas';

/** The paused connections' ids. */
export function pausedCompanies(store: KeyValueStore): ReadonlySet<string> {
  const stored = readJson<unknown>(store, KEY, []);
  return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
}

export function isPaused(store: KeyValueStore, connectionId: string): boolean {
  return pausedCompanies(store).has(connectionId);
}

/** One property value: about 200 paused companies (a connection id is 36 characters). */
export const PAUSED_BYTES = 8 * 1024;

/** A pause the user's properties have no room for: refused rather than said done and not kept. */
export class PausedFullError extends UserError {
  override name = 'PausedFullError';
  constructor() {
    super(
      'A pausa não foi salva: há empresas pausadas demais para as propriedades do seu usuário. Retome as que não precisam mais ficar pausadas e pause de novo.',
    );
  }
}

/**
 * Pauses (or resumes) the schedules of the user's reports of one connection.
 * Written only when it changes; the hourly run reads it at its next start, so
 * a resume takes effect at the next hour. Throws PausedFullError when the set
 * would not fit one property.
 */
export function pauseCompany(store: KeyValueStore, connectionId: string, paused: boolean): void {
  const now = new Set(pausedCompanies(store));
  if (now.has(connectionId) === paused) return;
  if (paused) now.add(connectionId);
  else now.delete(connectionId);
  const text = JSON.stringify([...now].sort());
  if (utf8Bytes(text) > PAUSED_BYTES) throw new PausedFullError();
  if (now.size === 0) store.delete(KEY);
  else store.set(KEY, text);
}

/**
 * The connections a report is of: its own, or a consolidated report's (all the
 * user's connections for "Todas as minhas conexões"). A report saved before
 * connections had ids is found by its connection's name.
 */
export function reportCompanies(report: Report, connections: ReadonlyArray<{ id: string; name: string }>): string[] {
  if (report.companies) return report.companies.all ? connections.map((c) => c.id) : report.companies.ids;
  if (report.connectionId) return [report.connectionId];
  const named = connections.find((c) => c.name === report.connection);
  return named ? [named.id] : [];
}

/** A scheduled start the user paused in the Central: every company the report is of is paused. */
export function pausedReport(report: Report, paused: ReadonlySet<string>, connections: ReadonlyArray<{ id: string; name: string }>): boolean {
  const companies = reportCompanies(report, connections);
  return companies.length > 0 && companies.every((id) => paused.has(id));
}
