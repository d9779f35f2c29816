// Times as the portal's files write them: wall-clock time in the exports' time zone (Stockholm), to the minute.
import { defined } from '#domain/defined.ts';
import { EXPORT_TIME_ZONE } from '#domain/export/periods.ts';

/** Date and time to the minute in the exports' time zone, 24-hour: "2026-11-23 14:05" (format) or its parts. */
export const EXPORT_MINUTE = new Intl.DateTimeFormat('sv-SE', {
  timeZone: EXPORT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock time in Stockholm, as the parts of a UTC date (how a spreadsheet date cell carries no zone). */
export function stockholmWallClock(iso: string): Date {
  const parts = new Map(EXPORT_MINUTE.formatToParts(new Date(iso)).map((p) => [p.type, Number(p.value)]));
  const part = (type: Intl.DateTimeFormatPartTypes) => defined(parts.get(type), `the ${type} of a Stockholm time`);
  return new Date(Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute')));
}

/** "2026-03-01 14:05", Stockholm time. */
export function stockholmText(iso: string): string {
  return stockholmWallClock(iso).toISOString().slice(0, 16).replace('T', ' ');
}
