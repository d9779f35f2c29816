// A period asked for (issue 39): `from` and `to` are Swedish calendar days (YYYY-MM-DD, both included) or ISO 8601
// times with an offset (to excluded). Read into the instants the raw records are cut by and the Swedish days the
// day and month totals are cut by (a time inside a day takes its whole day there: totals cannot be split). Pure.
import { tUsage } from '#domain/texts/usage.ts';
import { parseOffsetTime, swedishDay, USAGE_ZONE } from './time.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: USAGE_ZONE, timeZoneName: 'longOffset' });

/** Stockholm's offset from UTC in minutes at an instant (60 in winter, 120 in summer). */
function offsetAt(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/**
 * The instant a Swedish day (YYYY-MM-DD) begins. Summer time changes at 01:00 UTC, never at a Swedish midnight, so
 * the offset two hours before that day's 00:00 UTC is the one in force at its midnight.
 */
export function swedishMidnight(day: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  return new Date(utc - offsetAt(new Date(utc - 2 * 3_600_000)) * 60_000);
}

/** The Swedish day after `day`. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** A real calendar day written YYYY-MM-DD, or null. */
export function parseDay(text: string): string | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text ? text : null;
}

export type Period = {
  /** The first instant in the period. */
  from: Date;
  /** The first instant after it. */
  to: Date;
  /** The Swedish days the totals of the period are read from, both included. */
  firstDay: string;
  lastDay: string;
};

export type PeriodResult = { ok: true; period: Period } | { ok: false; field: 'from' | 'to'; message: string };

/** Days from the first to the last, both included. */
export const daysIn = (p: Period): number =>
  Math.round((Date.parse(`${p.lastDay}T00:00:00Z`) - Date.parse(`${p.firstDay}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * Reads `from` and `to` (either may be a day or a time). A period of at most `maxDays` Swedish days, `to` not
 * before `from`; an error names the field and says why, in Swedish.
 */
export function parsePeriod(from: string, to: string, maxDays: number): PeriodResult {
  const fromDay = parseDay(from);
  const fromTime = fromDay ? swedishMidnight(fromDay) : parseOffsetTime(from);
  if (!fromTime) return { ok: false, field: 'from', message: tUsage.period.from };
  const toDay = parseDay(to);
  const toTime = toDay ? swedishMidnight(nextDay(toDay)) : parseOffsetTime(to);
  if (!toTime) return { ok: false, field: 'to', message: tUsage.period.to };
  if (toTime.getTime() <= fromTime.getTime()) return { ok: false, field: 'to', message: tUsage.period.order };
  const period: Period = {
    from: fromTime,
    to: toTime,
    firstDay: fromDay ?? swedishDay(fromTime),
    // The day of the last instant in the period (to is excluded).
    lastDay: toDay ?? swedishDay(new Date(Math.max(fromTime.getTime(), toTime.getTime() - 1))),
  };
  if (daysIn(period) > maxDays) return { ok: false, field: 'to', message: tUsage.period.tooLong(maxDays) };
  return { ok: true, period };
}
