// Calendar arithmetic of the invoice export: which plan a SIM was on, day by day, split into months,
// and the default period (the previous full invoicing period). Pure and dependency-free: the server and
// the /export page use this same module, and the unit tests pin every rule down.
//
// The rules for days (a day is a calendar day in the export's time zone, Europe/Stockholm):
// - the activation day is the first active day;
// - a plan change on day C moves day C (and on) to the new plan; the old plan ends on C - 1;
// - the deactivation day is the last active day (the SIM was in service that day);
// - "updated" events that keep the plan change nothing.

export const EXPORT_TIME_ZONE = 'Europe/Stockholm';

export type YearMonth = { year: number; month: number }; // month 1-12
export type Period = { start: YearMonth; end: YearMonth };
/** A calendar day as a number: days since 1970-01-01. */
export type Day = number;

const MS_PER_DAY = 86_400_000;

export function dayOf(year: number, month: number, date: number): Day {
  return Math.round(Date.UTC(year, month - 1, date) / MS_PER_DAY);
}

/** '2026-01-15' -> Day (tests and fixtures). */
export function dayFromIso(iso: string): Day {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not a date: ${iso}`);
  return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isoFromDay(day: Day): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** A Date at UTC midnight of the day: what exceljs writes as that calendar date. */
export function dateFromDay(day: Day): Date {
  return new Date(day * MS_PER_DAY);
}

export function monthIndex(ym: YearMonth): number {
  return ym.year * 12 + (ym.month - 1);
}

export function yearMonthFromIndex(index: number): YearMonth {
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function addMonths(ym: YearMonth, n: number): YearMonth {
  return yearMonthFromIndex(monthIndex(ym) + n);
}

/** Number of months from start to end, both included (0 or less when start is after end). */
export function monthsInPeriod(p: Period): number {
  return monthIndex(p.end) - monthIndex(p.start) + 1;
}

export function firstDayOfMonth(ym: YearMonth): Day {
  return dayOf(ym.year, ym.month, 1);
}

export function lastDayOfMonth(ym: YearMonth): Day {
  return firstDayOfMonth(addMonths(ym, 1)) - 1;
}

export function formatYearMonth(ym: YearMonth): string {
  return `${ym.year}-${String(ym.month).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsIn(date: Date, timeZone: string): { year: number; month: number; day: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  let year = 0;
  let month = 0;
  let day = 0;
  for (const part of f.formatToParts(date)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
  }
  return { year, month, day };
}

/** The calendar day an instant falls on in the time zone. */
export function dayInZone(date: Date, timeZone = EXPORT_TIME_ZONE): Day {
  const p = partsIn(date, timeZone);
  return dayOf(p.year, p.month, p.day);
}

export function yearMonthInZone(date: Date, timeZone = EXPORT_TIME_ZONE): YearMonth {
  const p = partsIn(date, timeZone);
  return { year: p.year, month: p.month };
}

export const INVOICE_INTERVAL_MONTHS = { monthly: 1, quarterly: 3, biannually: 6, annually: 12 } as const;
export type IntervalName = keyof typeof INVOICE_INTERVAL_MONTHS;

/**
 * The previous full invoicing period before the current month: last month, last calendar quarter,
 * last half-year (Jan-Jun, Jul-Dec) or last calendar year.
 */
export function defaultPeriod(interval: IntervalName, current: YearMonth): Period {
  const length = INVOICE_INTERVAL_MONTHS[interval];
  // Periods are aligned to the calendar year: the current one starts at the multiple of its length.
  const currentStart: YearMonth = { year: current.year, month: Math.floor((current.month - 1) / length) * length + 1 };
  const start = addMonths(currentStart, -length);
  return { start, end: addMonths(start, length - 1) };
}

/** The periods /export offers in one click (issue 41), each a whole calendar span up to the current month. */
export const EXPORT_PRESETS = ['lastMonth', 'thisMonth', 'lastQuarter', 'thisQuarter', 'lastYear', 'thisYear'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

/** A preset's period in the month `current`: "this" spans end at the current month (the export allows no later). */
export function presetPeriod(preset: ExportPreset, current: YearMonth): Period {
  const quarterStart: YearMonth = { year: current.year, month: Math.floor((current.month - 1) / 3) * 3 + 1 };
  switch (preset) {
    case 'lastMonth':
      return defaultPeriod('monthly', current);
    case 'thisMonth':
      return { start: current, end: current };
    case 'lastQuarter':
      return defaultPeriod('quarterly', current);
    case 'thisQuarter':
      return { start: quarterStart, end: current };
    case 'lastYear':
      return defaultPeriod('annually', current);
    case 'thisYear':
      return { start: { year: current.year, month: 1 }, end: current };
  }
}

export type SimEventInput = { kind: string; day: Day; planId: number };

export type MonthRow = {
  month: YearMonth;
  planId: number;
  from: Day;
  to: Day;
  /** Days active in the month on this plan, from and to included. */
  days: number;
};

type Interval = { planId: number; from: Day; to: Day };

/** The SIM's active intervals on each plan, from its history (events in time order). */
export function planIntervals(events: readonly SimEventInput[]): Interval[] {
  // Events on the same day keep their recorded order (the sort is stable).
  const sorted = [...events].sort((a, b) => a.day - b.day);
  const out: Interval[] = [];
  let plan: number | null = null;
  let since = 0;
  for (const e of sorted) {
    if (e.kind === 'activated') {
      if (plan === null) {
        plan = e.planId;
        since = e.day;
      } else if (e.planId !== plan) {
        out.push({ planId: plan, from: since, to: e.day - 1 });
        plan = e.planId;
        since = e.day;
      }
    } else if (e.kind === 'deactivated') {
      if (plan !== null) {
        out.push({ planId: plan, from: since, to: e.day });
        plan = null;
      }
    } else if (plan !== null && e.planId !== plan) {
      // planChanged, or an update that carried a plan change.
      out.push({ planId: plan, from: since, to: e.day - 1 });
      plan = e.planId;
      since = e.day;
    }
  }
  if (plan !== null) out.push({ planId: plan, from: since, to: Number.POSITIVE_INFINITY });
  return out.filter((i) => i.to >= i.from);
}

/**
 * One row per month per plan period in which the SIM was active, inside the period.
 * `lastDay` cuts the current month at today: days that have not happened are not billed.
 */
export function monthRows(
  events: readonly SimEventInput[],
  period: Period,
  lastDay: Day = Number.POSITIVE_INFINITY,
): MonthRow[] {
  const periodFrom = firstDayOfMonth(period.start);
  const periodTo = Math.min(lastDayOfMonth(period.end), lastDay);
  const rows: MonthRow[] = [];
  for (const interval of planIntervals(events)) {
    let from = Math.max(interval.from, periodFrom);
    const to = Math.min(interval.to, periodTo);
    while (from <= to) {
      const month = yearMonthOfDay(from);
      const monthEnd = Math.min(lastDayOfMonth(month), to);
      rows.push({ month, planId: interval.planId, from, to: monthEnd, days: monthEnd - from + 1 });
      from = monthEnd + 1;
    }
  }
  return rows;
}

export function yearMonthOfDay(day: Day): YearMonth {
  const d = new Date(day * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
}
