// A list of SIMs to activate from a file: CSV (comma, semicolon or tab, with or without a header)
// or XLSX (the first worksheet, read with exceljs). Pure: bytes in, rows or Swedish messages out; the page
// (app/routes/add_.bulk.tsx) hands the rows to sim.bulkActivate, which checks them again as typed input.
//
// Columns: a header row may name them `iccid`, `invoiceLineMark` or `fakturamärkning`, `invoiceLineNote` or
// `fakturakommentar`, `tags` or `taggar` (any case; spaces, dashes and underscores ignored; other columns are
// ignored). A first row naming none of them is data: then the 1st column is the ICCID, the 2nd the mark, the 3rd the
// comment and the 4th the tags, in the template's order. An empty mark or comment cell means "the list's own" (the
// fields on the page); a row's tags (separated by commas) are added to the list's.
//
// Never rounded: an ICCID that Excel stored as a number (8.9460123E+19) has already lost its last digits,
// so such a cell is refused naming its row, and so is the text Excel writes for it in a CSV ("8,946E+19").
//
// Bounded: at most BULK_FILE_MAX_BYTES, BULK_MAX data rows, the cells read capped (the ICCID at 100 characters, as
// the procedure's schema; a mark or comment at MARK_MAX). The files are read into rows by server/files/: a CSV with
// csv-parse (csv-read.ts), an XLSX in a worker thread within memory, time and unpacked-size limits (xlsx-read.ts).
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { BULK_FILE_MAX_BYTES, BULK_MAX, MARK_MAX, type BulkRow } from '#domain/sims/schemas.ts';
import { tagsOfText } from '#domain/sims/tags.ts';
import { decodeCsv, readCsvRows } from '#server/files/csv-read.ts';
import type { Cell, RawRows } from '#server/files/rows.ts';
import { readXlsxRows, XLSX_MAX_UNPACKED } from '#server/files/xlsx-read.ts';

export { BULK_FILE_MAX_BYTES };

const ICCID_CELL_MAX = 100;
/** A Taggar cell read: room for every tag a row may have (20 of 40 characters and their commas). */
const TAGS_CELL_MAX = 2_000;
/** How many refused rows a message names before it only counts the rest. */
const NAMED_ROWS = 5;

export type BulkFileResult =
  { ok: true; rows: BulkRow[]; format: 'csv' | 'xlsx'; header: boolean } | { ok: false; errors: string[] };

type Column = 'iccid' | 'invoiceLineMark' | 'invoiceLineNote' | 'tags';
const HEADER_NAMES: Record<string, Column> = {
  iccid: 'iccid',
  invoicelinemark: 'invoiceLineMark',
  fakturamärkning: 'invoiceLineMark',
  invoicelinenote: 'invoiceLineNote',
  fakturakommentar: 'invoiceLineNote',
  tags: 'tags',
  taggar: 'tags',
};
const headerName = (cell: string): Column | undefined =>
  HEADER_NAMES[
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '')
  ];

/** How a spreadsheet writes a number in scientific notation, as it may end up in a CSV or a text cell. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;

/** The rows read of a file: enough to refuse one too long (the rest are only counted). */
const KEPT_ROWS = BULK_MAX + 1; // the header and BULK_MAX rows

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

export async function parseBulkFile(bytes: Uint8Array): Promise<BulkFileResult> {
  const f = tBulkFile;
  if (bytes.length === 0) return { ok: false, errors: [f.emptyFile] };
  if (bytes.length > BULK_FILE_MAX_BYTES)
    return { ok: false, errors: [f.fileTooLarge(Math.round(BULK_FILE_MAX_BYTES / 1024))] };
  if (isZip(bytes)) {
    const rows = await readXlsxRows(bytes, KEPT_ROWS);
    if (typeof rows !== 'string') return toList(rows, 'xlsx');
    const message = {
      unreadable: f.notAFile,
      unpacked: f.unpackedTooLarge(XLSX_MAX_UNPACKED / 1024 / 1024),
      heavy: f.tooHeavy,
      busy: f.busy,
    }[rows];
    return { ok: false, errors: [message] };
  }
  const text = decodeCsv(bytes);
  const rows = text === null ? 'unreadable' : readCsvRows(text, KEPT_ROWS);
  if (rows === 'unreadable') return { ok: false, errors: [f.notAFile] };
  return toList(rows, 'csv');
}

const cellText = (cell: Cell | undefined): string =>
  cell === undefined ? '' : typeof cell === 'string' ? cell : String(cell.number);

/** "rad 2, 5 och 9" or "rad 2, 5, 9, 11, 12 och 3 till". */
function rowList(lines: number[]): string {
  const named = lines.slice(0, NAMED_ROWS);
  const rest = lines.length - named.length;
  if (rest > 0) return `${named.join(', ')} ${tBulkFile.andMore(rest)}`;
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} och ${named.at(-1)}` : String(named[0]);
}

function toList({ rows: raw, total }: RawRows, format: 'csv' | 'xlsx'): BulkFileResult {
  const f = tBulkFile;
  const first = raw[0];
  if (!first) return { ok: false, errors: [f.noRows] };
  const named = first.cells.map((c) => headerName(cellText(c)));
  const header = named.some((n) => n !== undefined);
  const column = (name: Column, fallback: number) => (header ? named.indexOf(name) : fallback);
  const at = {
    iccid: column('iccid', 0),
    invoiceLineMark: column('invoiceLineMark', 1),
    invoiceLineNote: column('invoiceLineNote', 2),
    tags: column('tags', 3),
  };
  if (at.iccid < 0) return { ok: false, errors: [f.noIccidColumn] };
  const count = header ? total - 1 : total;
  if (count === 0) return { ok: false, errors: [f.noRows] };
  if (count > BULK_MAX) return { ok: false, errors: [f.tooManyRows(count, BULK_MAX)] };
  const data = header ? raw.slice(1) : raw;

  const numeric: number[] = [];
  const tooLong: string[] = [];
  const rows: BulkRow[] = [];
  for (const r of data) {
    const iccidCell = r.cells[at.iccid];
    const iccidText = cellText(iccidCell).trim();
    if ((typeof iccidCell === 'object' && !Number.isSafeInteger(iccidCell.number)) || SCIENTIFIC.test(iccidText))
      numeric.push(r.line);
    if (iccidText.length > ICCID_CELL_MAX) tooLong.push(f.iccidTooLong(r.line, ICCID_CELL_MAX));
    const row: BulkRow = { iccid: iccidText.slice(0, ICCID_CELL_MAX) };
    for (const key of ['invoiceLineMark', 'invoiceLineNote'] as const) {
      if (at[key] < 0) continue;
      const value = cellText(r.cells[at[key]]).trim();
      if (value.length > MARK_MAX) tooLong.push(f.rowTooLong(r.line, key, MARK_MAX));
      else if (value !== '') row[key] = value;
    }
    if (at.tags >= 0) {
      const tags = tagsOfText(cellText(r.cells[at.tags]).slice(0, TAGS_CELL_MAX));
      if (!tags.ok) tooLong.push(f.rowTag(r.line, tags.message));
      else if (tags.tags.length) row.tags = tags.tags;
    }
    rows.push(row);
  }
  const errors: string[] = [];
  if (numeric.length) errors.push(f.scientific(rowList(numeric)));
  errors.push(...tooLong.slice(0, NAMED_ROWS));
  if (tooLong.length > NAMED_ROWS) errors.push(f.moreProblems(tooLong.length - NAMED_ROWS));
  return errors.length ? { ok: false, errors } : { ok: true, rows, format, header };
}
