// The files of /add/bulk: the templates a list is filled in (CSV and XLSX, the ICCID column as
// text) and a bulk activation's result (every row: ICCID, outcome in Swedish, message). Files of at most
// 10,000 rows (BULK_MAX), made in memory, in the list export's formats: CSV in UTF-8 with BOM, semicolons and CRLF for
// Swedish Excel, the ICCID behind a tab (docs/decisions/008); XLSX with text cells. Whatever came from a user
// (an ICCID that is not one, a message) is written formula-safe with server/files/'s helpers.
import ExcelJS from 'exceljs';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import { CSV_CONTENT_TYPE, csvFile, csvIccid, csvText } from '#server/files/csv.ts';
import { safeText } from '#server/files/formula.ts';
import { XLSX_CONTENT_TYPE } from '#server/files/xlsx-rows.ts';
import { z } from '#domain/zod.ts';
import { iccidMessages, iccidProblem, normalizeIccid, withCheckDigit } from '#domain/sims/iccid.ts';
import { BULK_ACTIVATE_OUTCOMES, BULK_MAX, type BulkActivateOutcome } from '#domain/sims/schemas.ts';

export type DownloadFormat = 'csv' | 'xlsx';
export type DownloadFile = { filename: string; contentType: string; body: Uint8Array<ArrayBuffer> };

/** The template's header: the names the parser knows (server/sims/bulk-file.ts). */
export const TEMPLATE_HEADER = ['iccid', 'fakturamärkning', 'fakturakommentar', 'taggar'] as const;
/** A well-formed example (Luhn check digit right) that no real card is likely to have. */
export const TEMPLATE_EXAMPLE = [
  withCheckDigit('8946000000000000001'),
  tBulkFile.templateExample.mark,
  tBulkFile.templateExample.note,
  tBulkFile.templateExample.tags,
] as const;

const contentType = (format: DownloadFormat) => (format === 'csv' ? CSV_CONTENT_TYPE : XLSX_CONTENT_TYPE);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** An ICCID cell of the CSV: digits behind a tab (kept as text by Excel); anything else as formula-safe text. */
const csvIccidCell = (iccid: string) => (/^\d+$/.test(iccid) ? csvIccid(iccid) : csvText(iccid));

async function workbook(
  sheetName: string,
  columns: Array<{ header: string; width: number }>,
  rows: string[][],
): Promise<Uint8Array<ArrayBuffer>> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'SIM-portalen';
  const sheet = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  // Every column text ('@'), the ICCID's above all: what is typed in it later stays all 20 digits.
  sheet.columns = columns.map((c) => ({ width: c.width, style: { numFmt: '@' } }));
  sheet.addRow(columns.map((c) => c.header)).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((v) => safeText(v)));
  // A copy into a plain ArrayBuffer (exceljs answers a Node Buffer), as a fetch Response body takes it.
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

export async function bulkTemplate(format: DownloadFormat): Promise<DownloadFile> {
  const filename = `aktivera-flera-mall.${format}`;
  if (format === 'csv') {
    const example = [csvIccid(TEMPLATE_EXAMPLE[0]), ...TEMPLATE_EXAMPLE.slice(1).map(csvText)];
    return { filename, contentType: contentType(format), body: utf8(csvFile(TEMPLATE_HEADER, [example])) };
  }
  const body = await workbook(
    tBulkFile.templateSheet,
    TEMPLATE_HEADER.map((header, i) => ({ header, width: i === 0 ? 24 : 30 })),
    [[...TEMPLATE_EXAMPLE]],
  );
  return { filename, contentType: contentType(format), body };
}

export type ResultRow = { iccid: string; outcome: BulkActivateOutcome; message?: string };

export async function bulkResultFile(
  format: DownloadFormat,
  rows: ResultRow[],
  now = new Date(),
): Promise<DownloadFile> {
  const c = tBulkFile.resultColumns;
  const filename = `aktivera-flera-resultat_${now.toISOString().slice(0, 10)}.${format}`;
  const cells = rows.map((r): [string, string, string] => [r.iccid, tBulkAdd.outcomes[r.outcome], r.message ?? '']);
  if (format === 'csv') {
    const records = cells.map(([iccid, outcome, message]) => [csvIccidCell(iccid), csvText(outcome), csvText(message)]);
    return {
      filename,
      contentType: contentType(format),
      body: utf8(csvFile([c.iccid, c.outcome, c.message], records)),
    };
  }
  const body = await workbook(
    tBulkFile.resultSheet,
    [
      { header: c.iccid, width: 24 },
      { header: c.outcome, width: 28 },
      { header: c.message, width: 60 },
    ],
    cells,
  );
  return { filename, contentType: contentType(format), body };
}

/**
 * The result rows as the result page posts them back: [ICCID, outcome] pairs, nothing else. The message of
 * each row is made again here from the two (resultMessage), so no text the browser sent is written but the
 * ICCID, formula-safe.
 */
export const postedResult = z
  .array(z.tuple([z.string().max(100), z.enum(BULK_ACTIVATE_OUTCOMES)]))
  .min(1)
  .max(BULK_MAX);

/** The message the procedure gives a row of this outcome (activateBulk, server/sims/bulk.ts). */
export function resultMessage(iccid: string, outcome: BulkActivateOutcome): string | undefined {
  switch (outcome) {
    case 'invalid': {
      const problem = iccidProblem(normalizeIccid(iccid));
      return problem ? iccidMessages[problem] : undefined;
    }
    case 'duplicateInList':
      return tBulk.duplicateInList;
    case 'alreadyActive':
      return tBulk.alreadyActive;
    case 'activeElsewhere':
      return tBulk.activeElsewhere;
    default:
      return undefined;
  }
}

/** The posted rows (a JSON text) as result rows with their messages; null when they are not such rows. */
export function resultRowsOf(posted: string): ResultRow[] | null {
  let json: unknown;
  try {
    json = JSON.parse(posted);
  } catch {
    return null;
  }
  const parsed = postedResult.safeParse(json);
  if (!parsed.success) return null;
  return parsed.data.map(([iccid, outcome]) => ({ iccid, outcome, message: resultMessage(iccid, outcome) }));
}
