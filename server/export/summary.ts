// The invoice specification's "Sammanställning": SIMs and SIM-days per month and plan, counted as the month rows are
// written, and its sheet written after them.
import type ExcelJS from 'exceljs';
import { formatYearMonth, type YearMonth } from '#domain/export/periods.ts';
import { safeText } from '#server/files/formula.ts';
import type { PlanInfo, SpecRow } from './spec-rows.ts';

export const SHEET_SUMMARY = 'Sammanställning';

export const SUMMARY_COLUMNS = [
  { header: 'Månad', width: 10 },
  { header: 'Abonnemang', width: 38 },
  { header: 'Antal SIM-kort', width: 15 },
  { header: 'SIM-dagar', width: 12 },
] as const;

type SummaryEntry = { month: YearMonth; plan: PlanInfo; sims: number; days: number; lastSimId: number };

/** SIMs and SIM-days per month and plan, from month rows in SIM order. */
export class Summary {
  private readonly entries = new Map<string, SummaryEntry>();

  add(r: SpecRow): void {
    const key = `${r.month.year}-${r.month.month}|${r.plan.id}`;
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { month: r.month, plan: r.plan, sims: 0, days: 0, lastSimId: -1 }));
    // A SIM can have two periods on one plan in a month (A -> B -> A): count it once.
    if (entry.lastSimId !== r.simId) {
      entry.sims++;
      entry.lastSimId = r.simId;
    }
    entry.days += r.days;
  }

  /** By month, then plan (its description as Swedish sorts it, then its id). */
  sorted(): SummaryEntry[] {
    return [...this.entries.values()].sort(
      (a, b) =>
        a.month.year - b.month.year ||
        a.month.month - b.month.month ||
        a.plan.description.localeCompare(b.plan.description, 'sv') ||
        a.plan.id - b.plan.id,
    );
  }
}

/** The summary sheet, after the specification's. */
export function writeSummarySheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, summary: Summary): void {
  const sum = workbook.addWorksheet(SHEET_SUMMARY, { views: [{ state: 'frozen', ySplit: 1 }] });
  sum.columns = SUMMARY_COLUMNS.map((c, i) => ({ width: c.width, style: i < 2 ? { numFmt: '@' } : {} }));
  const sumHead = sum.addRow(SUMMARY_COLUMNS.map((c) => c.header));
  sumHead.font = { bold: true };
  sumHead.commit();
  for (const e of summary.sorted())
    sum.addRow([formatYearMonth(e.month), safeText(e.plan.description), e.sims, e.days]).commit();
  sum.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: SUMMARY_COLUMNS.length } };
  sum.commit();
}
