// Reading an uploaded CSV into rows with csv-parse: the text's encoding and separator found first (as Swedish Excel
// and others save "CSV"), then RFC 4180 records (quoted fields may hold separators, doubled quotes and line breaks).
import { CsvError, parse } from 'csv-parse/sync';
import type { RawRow, RawRows } from './rows.ts';

/** The file as text: UTF-8 (a BOM dropped) or, failing that, Windows-1252 (what Swedish Excel saves as "CSV"). */
export function decodeCsv(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  // Control characters other than tab and line breaks: a binary file, not text.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return null;
  return text;
}

/** The separator of the first line that has one: semicolon, comma or tab, whichever occurs most outside quotes. */
export function separatorOf(text: string): string {
  const line = text.split(/\r\n|\n|\r/).find((l) => l.trim() !== '') ?? '';
  const outside = line.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((s) => [s, outside.split(s).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ';';
}

const LINE_BREAK = /\r\n|\n|\r/g;

/**
 * The non-blank records of a CSV text, the first `keptRows` of them kept with the line each starts on, all counted;
 * 'unreadable' when it is not CSV (a quote never closed). Cells are trimmed; a row of blank cells is no row.
 */
export function readCsvRows(text: string, keptRows: number): RawRows | 'unreadable' {
  const rows: RawRow[] = [];
  let total = 0;
  let line = 1;
  try {
    parse(text, {
      delimiter: separatorOf(text),
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      // A quote inside an unquoted field (Låda "7") is a character of it, as spreadsheets write it.
      relax_quotes: true,
      trim: true,
      // Each record's own text, blank lines too: the line a record starts on is counted from them. (csv-parse's
      // info.lines is where a record ends, and counts a CRLF inside quotes as two lines.)
      raw: true,
      // Every record is taken here, as it is parsed, and none kept by csv-parse. With `raw` it hands over
      // { record, raw } (its typings say the record alone): both are taken.
      on_record: (entry: string[] | { record: string[] }, { raw }) => {
        const record = Array.isArray(entry) ? entry : entry.record;
        if (record.some((c) => c !== '') && ++total <= keptRows) rows.push({ line, cells: record });
        line += raw?.match(LINE_BREAK)?.length ?? 0;
        return null;
      },
    });
  } catch (err) {
    if (err instanceof CsvError) return 'unreadable';
    throw err;
  }
  return { rows, total };
}
