// Writing a long XLSX sheet through exceljs' streaming writer, its rows as sheet XML (rowXml): exceljs' row model
// (a Row, its Cells, their models and an XML builder per row) made so much short-lived garbage that V8 grew its
// heap with the size of the file (docs/decisions/010-export-rows-as-xml.md). Used by the invoice specification and
// the /sims list export; the bulk templates and results are small and use exceljs' own workbook.
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sheetXmlStream, styleId, xmlEncode } from './exceljs-internals.ts';
import type { TextCell } from './formula.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A streaming workbook writer into `out` (inline strings, styles), as every exported XLSX is made. */
export function newStreamingWorkbook(out: Writable): ExcelJS.stream.xlsx.WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'SIM-portalen';
  return workbook;
}

const MS_PER_DAY = 24 * 3600 * 1000;
const COLUMN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A string cell as exceljs writes it without shared strings; rich text as an inline string. */
function stringCell(ref: string, style: string, value: TextCell): string {
  if (typeof value === 'string') return `<c r="${ref}"${style} t="str"><v>${xmlEncode(value)}</v></c>`;
  const runs = value.richText
    .map((r) => `<r><t${/^\s|\n|\s$/.test(r.text) ? ' xml:space="preserve"' : ''}>${xmlEncode(r.text)}</t></r>`)
    .join('');
  return `<c r="${ref}"${style} t="inlineStr"><is>${runs}</is></c>`;
}

/** A cell of a row written as sheet XML (rowXml): a text (or rich text), a date or a number, with its style id. */
export type XmlCell =
  | { kind: 'text'; value: TextCell; style: number }
  | { kind: 'date'; value: Date; style: number }
  | { kind: 'number'; value: number; style: number };

/**
 * One <row> of cells from column A on (at most 26 columns), as one string: byte for byte what exceljs' row.commit()
 * writes for the same cells (tests/unit/export-workbook.test.ts compares them). A date is its serial day number.
 */
export function rowXml(n: number, cells: XmlCell[]): string {
  let xml = `<row r="${n}" spans="1:${cells.length}" x14ac:dyDescent="0.25">`;
  for (const [i, c] of cells.entries()) {
    const ref = `${COLUMN_LETTERS[i]}${n}`;
    const style = c.style ? ` s="${c.style}"` : '';
    if (c.kind === 'text') xml += stringCell(ref, style, c.value);
    else
      xml += `<c r="${ref}"${style}><v>${c.kind === 'date' ? 25569 + c.value.getTime() / MS_PER_DAY : c.value}</v></c>`;
  }
  return xml + '</row>';
}

/**
 * What writing rows as XML into a sheet needs: the style id a cell of a format gets, and the sheet's XML stream (its
 * header rows opened <sheetData>; sheet.commit() closes it).
 */
export function sheetXmlWriter(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: ExcelJS.Worksheet,
): { styleOf: (numFmt: string, type: ExcelJS.ValueType) => number; write: (xml: string) => void } {
  return { styleOf: (numFmt, type) => styleId(workbook, numFmt, type), write: sheetXmlStream(sheet) };
}
