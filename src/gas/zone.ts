/** The spreadsheet's time zone, read through Utilities (one call per hour of time, cached). */
import { hourlyCachedReader, makeZone, type Zone } from '../api/calendar';

export function gasZone(timeZone: string): Zone {
  return makeZone(
    timeZone,
    hourlyCachedReader((instant) => {
      const [date, time] = Utilities.formatDate(instant, timeZone, 'yyyy-MM-dd HH:mm:ss').split(' ');
      const [year, month, day] = date.split('-').map(Number);
      const [hour, minute, second] = time.split(':').map(Number);
      return { year, month, day, hour, minute, second };
    }),
  );
}
