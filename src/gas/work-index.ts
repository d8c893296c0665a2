/**
 * The owner's work index and paused companies as the Central do escritório
 * reads and changes them, from any spreadsheet: both live in the user's
 * properties (core/hourly/work-index.ts, core/hourly/paused.ts).
 */
import { pauseCompany } from '../core/hourly/paused';
import { readWorkIndex, type WorkIndex } from '../core/hourly/work-index';
import { withUserLock } from './lock';
import { userStore } from './services';

export function userWorkIndex(): WorkIndex {
  return readWorkIndex(userStore());
}

/** Pauses or resumes the user's schedules of one company, under their user lock: the hourly run reads the set. */
export function setCompanyPaused(connectionId: string, paused: boolean): void {
  withUserLock(() => pauseCompany(userStore(), connectionId, paused));
}
