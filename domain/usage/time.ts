// Times of usage records: ISO 8601 with an offset read strictly, and the Swedish calendar day and month a time
// belongs to (Europe/Stockholm, summer time included). Pure: the ingest, the reads and the tests share it.

export const USAGE_ZONE = 'Europe/Stockholm';

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

/**
 * A time written in ISO 8601 with its offset (`Z`, `+01:00` or `+0100`), seconds and fractions optional; null for
 * anything else, a time without offset included (its zone would be a guess) and a day or hour that does not exist.
 */
export function parseOffsetTime(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (new Date(local).getUTCDate() !== d) return null; // 31 April, 29 February of a common year
  const offset = m[8] ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (Math.abs(offset) > 18 * 60 || Number(m[11]) > 59) return null;
  return new Date(local - offset * 60_000);
}

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: USAGE_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The day from Intl's parts: the one reference. */
function dayOfParts(at: Date): string {
  const parts = dayFormat.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const HOUR = 3_600_000;
/** From 1970 Stockholm's offset is whole hours and changes on the hour, so midnight there is on a UTC hour. */
const WHOLE_HOURS_FROM = Date.UTC(1970, 0, 1);
/** The day of each UTC hour asked for (every instant of a UTC hour is on one day in Stockholm). Bounded. */
const daysOfHours = new Map<number, string>();

/**
 * The Swedish calendar day (YYYY-MM-DD) of a time: the day it is in Stockholm at that moment. Asked of Intl once per
 * UTC hour, not per call (formatToParts was about 1 microsecond a call, 50 a page of the API's list and twice more
 * for this month; as server/files/time.ts does for the exports' times).
 */
export function swedishDay(at: Date): string {
  const ms = at.getTime();
  if (!(ms >= WHOLE_HOURS_FROM)) return dayOfParts(at);
  const hour = Math.floor(ms / HOUR);
  let day = daysOfHours.get(hour);
  if (day === undefined) {
    day = dayOfParts(at);
    if (daysOfHours.size >= 10_000) daysOfHours.clear();
    daysOfHours.set(hour, day);
  }
  return day;
}

/** The Swedish calendar month (YYYY-MM) of a time. */
export function swedishMonth(at: Date): string {
  return swedishDay(at).slice(0, 7);
}

/** The first day (YYYY-MM-DD) of the month of a Swedish day or month. */
export function monthStart(dayOrMonth: string): string {
  return `${dayOrMonth.slice(0, 7)}-01`;
}
