// Every CSV the portal writes (the /sims list export, the bulk templates and results, the activity trail): for
// Swedish Excel, UTF-8 with a BOM, semicolons and CRLF, RFC 4180 quoting, user texts behind the formula guard, the
// ICCID behind a tab (docs/decisions/008-csv-iccid-behind-a-tab.md).
//
// The fields are encoded here by hand, not by csv-stringify: on the list export's rows csv-stringify made 2-4 times
// fewer rows a second, and the 1,000,000-row export spends most of its time here (docs/decisions/023-files-plumbing.md).
// tests/unit/csv-files.test.ts checks that the encoding is csv-stringify's with CSV_STRINGIFY_OPTIONS, field for field.
import type { Writable } from 'node:stream';
import { looksLikeFormula } from './formula.ts';
import { writeOrWait } from './streams.ts';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
const BOM = '\uFEFF';
const SEPARATOR = ';';
const CRLF = '\r\n';

/** csv-stringify's options for what csvField writes: the reference the tests compare the encoding with. */
export const CSV_STRINGIFY_OPTIONS = {
  delimiter: SEPARATOR,
  record_delimiter: CRLF,
  quoted_match: /[\r\n]|^\s|\s$/,
} as const;

const NEEDS_QUOTES = /[;"\r\n]|^\s|\s$/;

/** RFC 4180: a field with the separator, a quote, a line break or edge whitespace is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A text as Excel should show it: one it would take for a formula gets a leading apostrophe (OWASP's advice
 * for CSV; an XLSX file uses safeText, a text cell, instead).
 */
export const csvText = (value: string) => csvField(looksLikeFormula(value) ? `'${value}` : value);

/**
 * The ICCID with a leading tab: Excel then keeps the field as text, all 20 digits (as a number it would keep 15
 * and show 8.9E+19). Not ="…", which is itself a formula: a file that teaches Excel to run formulas from cells
 * is what the formula neutralising is there to prevent. The tab is whitespace any importer trims, and an ICCID
 * is digits only, so what is left after trimming can never be a formula.
 */
export const csvIccid = (iccid: string) => csvField(`\t${iccid}`);

/** One record of fields already encoded (csvField, csvText, csvIccid), with its line break. */
export const csvLine = (fields: readonly string[]) => fields.join(SEPARATOR) + CRLF;

/** The first line of a file: the BOM and the column names. */
export const csvHeader = (names: readonly string[]) => BOM + csvLine(names.map(csvField));

/** A whole (small) file in memory: the header, then the records of encoded fields. */
export const csvFile = (names: readonly string[], records: ReadonlyArray<readonly string[]>) =>
  csvHeader(names) + records.map(csvLine).join('');

/**
 * A long file to `out`, which it ends, as the batches come: a batch's records are written as one string, and the
 * next batch is read only once `out` has room (so a slow reader holds the reads back). Throws ExportAborted when the
 * reader went away.
 */
export async function writeCsv<T>(
  out: Writable,
  names: readonly string[],
  batches: AsyncIterable<T[]>,
  record: (item: T) => readonly string[],
): Promise<{ rows: number }> {
  await writeOrWait(out, csvHeader(names));
  let rows = 0;
  for await (const batch of batches) {
    let text = '';
    for (const item of batch) text += csvLine(record(item));
    await writeOrWait(out, text);
    rows += batch.length;
  }
  out.end();
  return { rows };
}
