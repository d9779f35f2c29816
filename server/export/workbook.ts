// The invoice specification workbook, written with exceljs' streaming writer as the rows come, so memory does not
// grow with their number. The month rows (all but a few of the file) are written as sheet XML, one string per row
// (specRowXml, through server/files/xlsx-rows.ts: docs/decisions/010-export-rows-as-xml.md). Sheets: "Specifikation"
// (a header block, then one row per SIM, month and plan period), "Sammanställning" (./summary.ts) and "Förbrukning"
// (./usage-sheet.ts: each SIM's data use per month), added last so that the first two stay as they were.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { dateFromDay, formatYearMonth } from '#domain/export/periods.ts';
import { formatDataAmount } from '#domain/plans/selector.ts';
import { safeText, type TextCell } from '#server/files/formula.ts';
import { caughtUp, XML_ROWS_BETWEEN_LOOKS } from '#server/files/streams.ts';
import { newStreamingWorkbook, rowXml, sheetXmlWriter } from '#server/files/xlsx-rows.ts';
import type { SpecHeader, SpecRow, UsageRow } from './spec-rows.ts';
import { Summary, writeSummarySheet } from './summary.ts';
import { writeUsageSheet } from './usage-sheet.ts';

export type { PlanInfo, SpecHeader, SpecRow } from './spec-rows.ts';
export { SHEET_SUMMARY, SUMMARY_COLUMNS } from './summary.ts';
export { SHEET_USAGE, USAGE_COLUMNS } from './usage-sheet.ts';

export const SHEET_SPEC = 'Specifikation';

export const SPEC_COLUMNS = [
  { header: 'Månad', width: 10, text: true },
  { header: 'ICCID', width: 24, text: true },
  { header: 'Fakturamärkning', width: 30, text: true },
  { header: 'Fakturakommentar', width: 30, text: true },
  { header: 'Abonnemang', width: 38, text: true },
  { header: 'Datamängd', width: 12, text: true },
  { header: 'Tal & SMS', width: 10, text: true },
  { header: 'Roaming', width: 10, text: true },
  { header: 'Aktiv från', width: 12, date: true },
  { header: 'Aktiv till', width: 12, date: true },
  { header: 'Aktiva dagar', width: 13 },
] as const;

/** The row of the column headers in "Specifikation" (after the header block and a blank row). */
export const SPEC_HEADER_ROW = 7;

// As the UI shows it: the plan selector's own formatting.
export { formatDataAmount };

export const yesNo = (v: boolean) => (v ? 'Ja' : 'Nej');

/** The <row> of one month row of the specification (rowXml). */
export function specRowXml(
  n: number,
  cells: { texts: TextCell[]; from: Date; to: Date; days: number },
  styles: { text: number; date: number },
): string {
  return rowXml(n, [
    ...cells.texts.map((value) => ({ kind: 'text' as const, value, style: styles.text })),
    { kind: 'date', value: cells.from, style: styles.date },
    { kind: 'date', value: cells.to, style: styles.date },
    { kind: 'number', value: cells.days, style: 0 },
  ]);
}

/** The streaming workbook writer of the invoice specification, into `out`. */
export const newWorkbook = (out: Writable): ExcelJS.stream.xlsx.WorkbookWriter => newStreamingWorkbook(out);

/** The specification sheet with its header block and column headings written, ready for the month rows. */
export function addSpecSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, header: SpecHeader): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(SHEET_SPEC, { views: [{ state: 'frozen', ySplit: SPEC_HEADER_ROW }] });
  sheet.columns = SPEC_COLUMNS.map((c) => ({
    width: c.width,
    style: 'text' in c ? { numFmt: '@' } : 'date' in c ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  const p = header.period;
  const block: Array<[string, string]> = [
    ['Företag', header.companyName],
    ['Kundnummer', header.customerNumber],
    ['Fakturanotering', header.invoiceNote],
    ['Period', `${formatYearMonth(p.start)} – ${formatYearMonth(p.end)}`],
    ['Skapad', header.generatedAt],
  ];
  for (const [label, value] of block) {
    const row = sheet.addRow([label, safeText(value)]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  sheet.addRow([]).commit();
  const head = sheet.addRow(SPEC_COLUMNS.map((c) => c.header));
  head.font = { bold: true };
  head.commit();
  sheet.autoFilter = {
    from: { row: SPEC_HEADER_ROW, column: 1 },
    to: { row: SPEC_HEADER_ROW, column: SPEC_COLUMNS.length },
  };
  return sheet;
}

/** A month row's text cells, in column order (dates and days follow as values). */
export function specRowTexts(r: SpecRow): TextCell[] {
  return [
    formatYearMonth(r.month),
    r.iccid,
    safeText(r.invoiceLineMark),
    safeText(r.invoiceLineNote),
    safeText(r.plan.description),
    formatDataAmount(r.plan.dataLimit),
    yesNo(r.plan.call && r.plan.sms),
    yesNo(r.plan.roaming),
  ];
}

/**
 * Writes the workbook to `out` (which it ends). `batches` yields rows in order, a batch at a time;
 * between batches the writer waits while `out` is full, so a slow download holds the database reads back.
 * `usage`, read once the first two sheets are written, fills the sheet "Förbrukning" (none without it).
 */
export async function writeInvoiceSpecification(
  out: Writable,
  header: SpecHeader,
  batches: AsyncIterable<SpecRow[]>,
  usage?: AsyncIterable<UsageRow[]>,
): Promise<{ rows: number; usageRows: number }> {
  const workbook = newWorkbook(out);
  const sheet = addSpecSheet(workbook, header);

  const xml = sheetXmlWriter(workbook, sheet);
  const styleIds = {
    text: xml.styleOf('@', ExcelJS.ValueType.String),
    date: xml.styleOf('yyyy-mm-dd', ExcelJS.ValueType.Date),
  };

  const summary = new Summary();
  let rows = 0;
  for await (const batch of batches) {
    for (const [i, r] of batch.entries()) {
      // Give the event loop a turn now and then: the compressor (zlib, on another thread) needs it to
      // take the next chunk, so it works while the rows are being turned into XML.
      if (i > 0 && i % XML_ROWS_BETWEEN_LOOKS === 0) await caughtUp(sheet, out);
      const texts = specRowTexts(r);
      const from = dateFromDay(r.from);
      const to = dateFromDay(r.to);
      xml.write(specRowXml(SPEC_HEADER_ROW + 1 + rows, { texts, from, to, days: r.days }, styleIds));
      rows++;
      summary.add(r);
    }
    await caughtUp(sheet, out);
  }
  sheet.commit();

  writeSummarySheet(workbook, summary);
  const usageRows = usage ? await writeUsageSheet(workbook, out, usage) : 0;
  await workbook.commit();
  return { rows, usageRows };
}
