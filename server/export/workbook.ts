// Writes the invoice specification workbook with exceljs' streaming writer: rows are written as they
// come, so memory does not grow with the number of rows. The month rows (all but a few of the file) are
// written as the sheet XML exceljs would make for them, one string per row (specRowXml): exceljs' row model
// (a Row, eleven Cells, their models and an XML builder per row) made so much short-lived garbage that V8
// grew its heap with the size of the file (RSS +150 MB for 120k rows, docs/decisions/010-export-rows-as-xml.md). Sheets: "Specifikation" (a header block, then
// one row per SIM, month and plan period) and "Sammanställning" (SIMs and SIM-days per month and plan).
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  dateFromDay,
  EXPORT_TIME_ZONE,
  formatYearMonth,
  type Day,
  type Period,
  type YearMonth,
} from '#domain/export/periods.ts';
import { formatDataAmount } from '#domain/plans/selector.ts';

export type PlanInfo = {
  id: number;
  description: string;
  dataLimit: number;
  call: boolean;
  sms: boolean;
  roaming: boolean;
};

export type SpecRow = {
  simId: number;
  month: YearMonth;
  iccid: string;
  invoiceLineMark: string;
  invoiceLineNote: string;
  plan: PlanInfo;
  from: Day;
  to: Day;
  days: number;
};

export type SpecHeader = {
  companyName: string;
  customerNumber: string;
  invoiceNote: string;
  period: Period;
  generatedAt: string;
};

export const SHEET_SPEC = 'Specifikation';
export const SHEET_SUMMARY = 'Sammanställning';

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

export const SUMMARY_COLUMNS = [
  { header: 'Månad', width: 10 },
  { header: 'Abonnemang', width: 38 },
  { header: 'Antal SIM-kort', width: 15 },
  { header: 'SIM-dagar', width: 12 },
] as const;

// As the UI shows it: the plan selector's own formatting.
export { formatDataAmount };

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

export const yesNo = (v: boolean) => (v ? 'Ja' : 'Nej');

// The characters OWASP's CSV injection names, also behind leading whitespace (spaces, tabs, line breaks, no-break
// spaces: spreadsheets trim them on import and then read the formula), and a leading tab or carriage return.
const FORMULA_START = /^(?:\s*[=+\-@]|[\t\r])/;

/** A text a spreadsheet would take for a formula if it were typed in (issue 24, finding 11: spaces before it too). */
export const looksLikeFormula = (value: string) => FORMULA_START.test(value);

/**
 * A user-entered text as a cell value Excel shows as text. Cells written from plain strings are never
 * formulas, but a text that looks like one ("=HYPERLINK(...)", "+46...", "@SUM") is written as an
 * inline rich-text string in a text-formatted ("@") column, so it stays text even when the cell is
 * edited or the sheet is saved again.
 */
export function safeText(value: string): ExcelJS.CellValue {
  return looksLikeFormula(value) ? { richText: [{ text: value }] } : value;
}

// exceljs' own XML text encoder (4.4.0, pinned), the one every cell value goes through.
const { xmlEncode } = createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as {
  xmlEncode: (text: string) => string;
};
const MS_PER_DAY = 24 * 3600 * 1000;
const COLUMN_LETTERS = 'ABCDEFGHIJK';

/** A string cell as exceljs writes it without shared strings; rich text as an inline string. */
function stringCell(ref: string, style: string, value: ExcelJS.CellValue): string {
  if (typeof value === 'string') return `<c r="${ref}"${style} t="str"><v>${xmlEncode(value)}</v></c>`;
  const runs = (value as ExcelJS.CellRichTextValue).richText
    .map((r) => `<r><t${/^\s|\n|\s$/.test(r.text) ? ' xml:space="preserve"' : ''}>${xmlEncode(r.text)}</t></r>`)
    .join('');
  return `<c r="${ref}"${style} t="inlineStr"><is>${runs}</is></c>`;
}

/** A cell of a row written as sheet XML (rowXml): a text (or rich text), a date or a number, with its style id. */
export type XmlCell =
  | { kind: 'text'; value: ExcelJS.CellValue; style: number }
  | { kind: 'date'; value: Date; style: number }
  | { kind: 'number'; value: number; style: number };

/**
 * One <row> of cells from column A on, as one string: byte for byte what exceljs' row.commit() writes for the same
 * cells (tests/unit/export-workbook.test.ts compares them; docs/decisions/010). A date is its serial day number.
 */
export function rowXml(n: number, cells: XmlCell[]): string {
  let xml = `<row r="${n}" spans="1:${cells.length}" x14ac:dyDescent="0.25">`;
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i]!;
    const ref = `${COLUMN_LETTERS[i]}${n}`;
    const style = c.style ? ` s="${c.style}"` : '';
    if (c.kind === 'text') xml += stringCell(ref, style, c.value);
    else
      xml += `<c r="${ref}"${style}><v>${c.kind === 'date' ? 25569 + c.value.getTime() / MS_PER_DAY : c.value}</v></c>`;
  }
  return xml + '</row>';
}

/** The <row> of one month row of the specification (rowXml). */
export function specRowXml(
  n: number,
  cells: { texts: ExcelJS.CellValue[]; from: Date; to: Date; days: number },
  styles: { text: number; date: number },
): string {
  return rowXml(n, [
    ...cells.texts.map((value) => ({ kind: 'text' as const, value, style: styles.text })),
    { kind: 'date', value: cells.from, style: styles.date },
    { kind: 'date', value: cells.to, style: styles.date },
    { kind: 'number', value: cells.days, style: 0 },
  ]);
}

/**
 * What writing rows as XML needs of exceljs 4.4.0's internals (pinned): the style id a cell of a format gets (from
 * its style registry), and the sheet's XML stream (its header rows opened <sheetData>; sheet.commit() closes it).
 */
export function sheetXmlWriter(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: ExcelJS.Worksheet,
): { styleOf: (numFmt: string, type: ExcelJS.ValueType) => number; write: (xml: string) => void } {
  const internals = workbook as unknown as {
    styles: { addStyleModel: (style: Partial<ExcelJS.Style>, type: ExcelJS.ValueType) => number };
  };
  const stream = (sheet as unknown as { stream: { write: (xml: string) => void } }).stream;
  return {
    styleOf: (numFmt, type) => internals.styles.addStyleModel({ numFmt }, type),
    write: (xml) => stream.write(xml),
  };
}

/** The streaming workbook writer of the invoice specification, into `out`. */
export function newWorkbook(out: Writable): ExcelJS.stream.xlsx.WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'SIM-portalen';
  return workbook;
}

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
export function specRowTexts(r: SpecRow): ExcelJS.CellValue[] {
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

type SummaryEntry = { month: YearMonth; plan: PlanInfo; sims: number; days: number; lastSimId: number };

/**
 * Writes the workbook to `out` (which it ends). `batches` yields rows in order, a batch at a time;
 * between batches the writer waits while `out` is full, so a slow download holds the database reads back.
 */
export async function writeInvoiceSpecification(
  out: Writable,
  header: SpecHeader,
  batches: AsyncIterable<SpecRow[]>,
): Promise<{ rows: number }> {
  const workbook = newWorkbook(out);
  const sheet = addSpecSheet(workbook, header);

  const xml = sheetXmlWriter(workbook, sheet);
  const styleIds = {
    text: xml.styleOf('@', ExcelJS.ValueType.String),
    date: xml.styleOf('yyyy-mm-dd', ExcelJS.ValueType.Date),
  };

  const summary = new Map<string, SummaryEntry>();
  let rows = 0;
  for await (const batch of batches) {
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      // Give the event loop a turn now and then: the compressor (zlib, on another thread) needs it to
      // take the next chunk, so it works while the rows are being turned into XML.
      if (i > 0 && i % XML_ROWS_BETWEEN_LOOKS === 0) await caughtUp(sheet, out);
      const texts = specRowTexts(r);
      const month = texts[0] as string; // formatYearMonth's, never rich text
      const from = dateFromDay(r.from);
      const to = dateFromDay(r.to);
      xml.write(specRowXml(SPEC_HEADER_ROW + 1 + rows, { texts, from, to, days: r.days }, styleIds));
      rows++;
      const key = `${month}|${r.plan.id}`;
      let entry = summary.get(key);
      if (!entry) summary.set(key, (entry = { month: r.month, plan: r.plan, sims: 0, days: 0, lastSimId: -1 }));
      // A SIM can have two periods on one plan in a month (A -> B -> A): count it once.
      if (entry.lastSimId !== r.simId) {
        entry.sims++;
        entry.lastSimId = r.simId;
      }
      entry.days += r.days;
    }
    await caughtUp(sheet, out);
  }
  sheet.commit();

  const sum = workbook.addWorksheet(SHEET_SUMMARY, { views: [{ state: 'frozen', ySplit: 1 }] });
  sum.columns = SUMMARY_COLUMNS.map((c, i) => ({ width: c.width, style: i < 2 ? { numFmt: '@' } : {} }));
  const sumHead = sum.addRow(SUMMARY_COLUMNS.map((c) => c.header));
  sumHead.font = { bold: true };
  sumHead.commit();
  const entries = [...summary.values()].sort(
    (a, b) =>
      a.month.year - b.month.year ||
      a.month.month - b.month.month ||
      a.plan.description.localeCompare(b.plan.description, 'sv') ||
      a.plan.id - b.plan.id,
  );
  for (const e of entries)
    sum.addRow([formatYearMonth(e.month), safeText(e.plan.description), e.sims, e.days]).commit();
  sum.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: SUMMARY_COLUMNS.length } };
  sum.commit();
  await workbook.commit();
  return { rows };
}

export class ExportAborted extends Error {
  constructor() {
    super('the download was cancelled');
  }
}

/**
 * Uncompressed sheet XML allowed to wait for the compressor before more rows are written, and how many
 * rows are written between two looks at it. Small on purpose, like the batches of rows (BATCH_SIZE in
 * invoice-specification.ts): what is still in flight when V8's young-generation collection runs is moved
 * to the old generation, which V8 then lets grow before collecting it; with 4 MB and 6,000-row batches in
 * flight that growth followed the size of the file.
 */
const MAX_BACKLOG_BYTES = 64 * 1024;
export const XML_ROWS_BETWEEN_LOOKS = 200;

/**
 * Waits until the compressor has caught up with the rows written and the reader of `out` has taken
 * what was sent. exceljs' sheet stream pipes into the zip entry without honouring backpressure, so
 * without this wait the XML of every row would pile up in memory before a byte is compressed.
 */
export async function caughtUp(sheet: ExcelJS.Worksheet, out: Writable): Promise<void> {
  // Internals of exceljs 4.4.0 (pinned): the worksheet's StreamBuf and the zip entry stream it writes to.
  const entries = ((sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes ?? []) as Array<{
    writableLength?: number;
    _writableState?: { length: number };
  }>;
  const backlog = () => entries.reduce((n, e) => n + (e._writableState?.length ?? e.writableLength ?? 0), 0);
  for (;;) {
    if (out.destroyed) throw new ExportAborted();
    if (out.writableNeedDrain) await drained(out);
    else if (backlog() > MAX_BACKLOG_BYTES) await new Promise((resolve) => setTimeout(resolve, 1));
    else return void (await new Promise((resolve) => setImmediate(resolve)));
  }
}

/** What waits for each writable's next 'drain' (or its close), woken by one listener per writable. */
const drainWaiters = new WeakMap<Writable, Array<() => void>>();

/**
 * Resolves at the writable's next 'drain', or when it closes (an error destroys it, which closes it: callers
 * check `destroyed`). One 'drain' listener per writable for its whole life, never one per wait: the compression
 * middleware hands a response's 'drain' listeners to its zlib stream but not their removal, so a listener per
 * wait (events.once) piled up there for as long as a long page or export streamed (MaxListenersExceededWarning,
 * and every drain called them all).
 */
export function drained(out: Writable): Promise<void> {
  if (out.destroyed || out.closed) return Promise.resolve();
  let waiters = drainWaiters.get(out);
  if (!waiters) {
    const list: Array<() => void> = [];
    const wake = () => {
      for (const resolve of list.splice(0)) resolve();
    };
    out.on('drain', wake);
    out.once('close', wake);
    drainWaiters.set(out, (waiters = list));
  }
  return new Promise((resolve) => waiters.push(resolve));
}
