/**
 * The spreadsheet's time zone. Sheets' own formatting (Utilities.formatDate)
 * is the reference, at a service call per reading; Intl gives the same
 * readings for free wherever it agrees with it, which an execution checks once
 * per zone (a winter and a summer instant, so a zone's daylight saving is
 * seen). Where it does not agree, or Intl is missing, every hour of time costs
 * one call, cached.
 */
import { hourlyCachedReader, intlZone, makeZone, type WallTime, type Zone } from '../api/calendar';

function formatted(instant: Date, timeZone: string): WallTime {
  const [date, time] = Utilities.formatDate(instant, timeZone, 'yyyy-MM-dd HH:mm:ss').split(' ');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map(Number);
  return { year, month, day, hour, minute, second };
}

/** Intl's zone when it reads what Sheets reads at both probes of this year. */
function intlIfAgrees(timeZone: string): Zone | null {
  try {
    const intl = intlZone(timeZone);
    const year = new Date().getUTCFullYear();
    const agrees = [Date.UTC(year, 0, 15, 12), Date.UTC(year, 6, 15, 12)].every((t) => {
      const probe = new Date(t);
      return JSON.stringify(intl.wall(probe)) === JSON.stringify(formatted(probe, timeZone));
    });
    return agrees ? intl : null;
  } catch {
    return null;
  }
}

/** One zone per name for the execution: the document's, the service's and the dispatcher's share it. */
const zones = new Map<string, Zone>();

export function gasZone(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone =
      intlIfAgrees(timeZone) ??
      makeZone(
        timeZone,
        hourlyCachedReader((instant) => formatted(instant, timeZone)),
      );
    zones.set(timeZone, zone);
  }
  return zone;
}
