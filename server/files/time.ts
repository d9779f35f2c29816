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

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** From 1970 Stockholm's offset is whole hours and changes on the hour (before 1900 it was +01:12:12, local mean time). */
const WHOLE_HOURS_FROM = Date.UTC(1970, 0, 1);

/** The wall clock to the minute, from Intl's parts: the one reference. */
function wallClockOfParts(at: Date): Date {
  const parts = new Map(EXPORT_MINUTE.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const part = (type: Intl.DateTimeFormatPartTypes) => defined(parts.get(type), `the ${type} of a Stockholm time`);
  return new Date(Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute')));
}

/**
 * Stockholm's offset from UTC (ms) in each UTC hour asked for: every instant of a UTC hour has the same offset there
 * (the clocks change on the hour), so an export of 1,000,000 rows asks Intl once per hour its times fall in, not twice
 * a row (Intl's formatToParts was about 4 microseconds, the biggest part of a list row's formatting). Bounded.
 */
const offsets = new Map<number, number>();
function offsetOfHour(hour: number): number {
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const start = new Date(hour * HOUR);
    offset = wallClockOfParts(start).getTime() - start.getTime();
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** The wall-clock time in Stockholm, as the parts of a UTC date (how a spreadsheet date cell carries no zone). */
export function stockholmWallClock(iso: string): Date {
  const at = new Date(iso);
  const ms = at.getTime();
  if (!(ms >= WHOLE_HOURS_FROM)) return wallClockOfParts(at);
  return new Date(Math.floor(ms / MINUTE) * MINUTE + offsetOfHour(Math.floor(ms / HOUR)));
}

const textOf = (iso: string) => stockholmWallClock(iso).toISOString().slice(0, 16).replace('T', ' ');

/** A UTC time as the database and the API write it, from 1970 on: its minutes are Stockholm's too. */
const UTC_ISO = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z$/;
/** "2026-03-01 14" by UTC hour ("2026-03-01T13"): the whole offset moves the hour, never the minutes. Bounded. */
const hourTexts = new Map<string, string>();

/** "2026-03-01 14:05", Stockholm time. */
export function stockholmText(iso: string): string {
  if (!UTC_ISO.test(iso)) return textOf(iso);
  const hour = iso.slice(0, 13);
  let text = hourTexts.get(hour);
  if (text === undefined) {
    text = textOf(`${hour}:00:00Z`).slice(0, 13);
    if (hourTexts.size >= 10_000) hourTexts.clear();
    hourTexts.set(hour, text);
  }
  return `${text}:${iso.slice(14, 16)}`;
}
