// The export query (start_year, start_month, end_year, end_month) and its rules, with the Swedish
// messages. Pure and dependency-free: the procedure's zod schema runs it, and the /export page takes its
// limits for the HTML attributes and re-checks values it was sent back with when JS is off.
import { monthIndex, monthsInPeriod, type Period, type YearMonth } from './periods.ts';

export const YEAR_MIN = 2000;
export const YEAR_MAX = 2100;
export const MAX_MONTHS = 36;

export const EXPORT_FIELDS = ['start_year', 'start_month', 'end_year', 'end_month'] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];
export type RawExportQuery = Partial<Record<ExportField, unknown>>;

const label: Record<ExportField, string> = {
  start_year: 'Startår',
  start_month: 'Startmånad',
  end_year: 'Slutår',
  end_month: 'Slutmånad',
};

export const exportMessages = {
  missing: (f: ExportField) => `Ange ${label[f].toLowerCase()}.`,
  notInteger: (f: ExportField) => `${label[f]} måste vara ett heltal.`,
  year: (f: ExportField) => `${label[f]} måste vara mellan ${YEAR_MIN} och ${YEAR_MAX}.`,
  month: (f: ExportField) => `${label[f]} måste vara mellan 1 och 12.`,
  order: 'Perioden kan inte börja efter att den slutar.',
  tooLong: `Perioden får vara högst ${MAX_MONTHS} månader.`,
  future: 'Perioden kan inte sluta efter innevarande månad.',
};

export type ExportIssue = { field: ExportField; message: string };
export type ExportQuery = Period & {
  /** The numbers as the user typed them (for the file name). */
  typed: Record<ExportField, string>;
};
export type ExportCheck = { ok: true; value: ExportQuery } | { ok: false; issues: ExportIssue[] };

function text(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' ? v.trim() : '';
}

/** Checks the query against the rules; `current` is the current month (in the export's time zone). */
export function checkExportQuery(raw: RawExportQuery, current: YearMonth): ExportCheck {
  const issues: ExportIssue[] = [];
  const typed = {} as Record<ExportField, string>;
  const n = {} as Record<ExportField, number>;
  for (const f of EXPORT_FIELDS) {
    const v = text(raw[f]);
    typed[f] = v;
    const isYear = f.endsWith('year');
    if (v === '') issues.push({ field: f, message: exportMessages.missing(f) });
    else if (!/^\d{1,4}$/.test(v)) issues.push({ field: f, message: exportMessages.notInteger(f) });
    else {
      const value = Number(v);
      if (isYear && (value < YEAR_MIN || value > YEAR_MAX)) issues.push({ field: f, message: exportMessages.year(f) });
      else if (!isYear && (value < 1 || value > 12)) issues.push({ field: f, message: exportMessages.month(f) });
      else n[f] = value;
    }
  }
  if (issues.length) return { ok: false, issues };
  const period: Period = {
    start: { year: n.start_year, month: n.start_month },
    end: { year: n.end_year, month: n.end_month },
  };
  if (monthIndex(period.start) > monthIndex(period.end))
    return { ok: false, issues: [{ field: 'start_month', message: exportMessages.order }] };
  if (monthsInPeriod(period) > MAX_MONTHS)
    return { ok: false, issues: [{ field: 'start_year', message: exportMessages.tooLong }] };
  if (monthIndex(period.end) > monthIndex(current))
    return { ok: false, issues: [{ field: 'end_month', message: exportMessages.future }] };
  return { ok: true, value: { ...period, typed } };
}

/** Sim_export{startYear}{startMonth}-{endYear}{endMonth}.xlsx, the numbers as typed. */
export function exportFilename(q: ExportQuery): string {
  const t = q.typed;
  return `Sim_export${t.start_year}${t.start_month}-${t.end_year}${t.end_month}.xlsx`;
}
