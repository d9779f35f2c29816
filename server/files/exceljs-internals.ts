// What the streaming writers need of exceljs 4.4.0's internals (pinned in package.json), typed in this one place.
// They reach past its public API because its row model made too much garbage for files of a million rows
// (docs/decisions/010-export-rows-as-xml.md): rows are written as sheet XML straight into the sheet's stream, with
// the style ids and the XML escaping exceljs itself uses, and the writers wait on the zip entry it pipes into.
// An exceljs upgrade that changes any of these fails tests/unit/export-workbook.test.ts, which compares the files.
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';

/** exceljs' own XML text encoder (lib/utils/utils.js), the one every cell value goes through. */
export const { xmlEncode } = createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as {
  xmlEncode: (text: string) => string;
};

/** The streaming workbook writer's style registry (lib/stream/xlsx/workbook-writer.js: this.styles). */
type WorkbookWriterInternals = {
  styles: { addStyleModel: (style: Partial<ExcelJS.Style>, type: ExcelJS.ValueType) => number };
};

/**
 * A streaming worksheet's XML stream (lib/stream/xlsx/worksheet-writer.js: this.stream, a StreamBuf) and the zip
 * entries it pipes into (StreamBuf's pipes), whose buffered length is the XML still waiting for the compressor.
 */
type WorksheetWriterInternals = {
  stream?: {
    write: (xml: string) => void;
    pipes?: Array<{ writableLength?: number; _writableState?: { length: number } }>;
  };
};

// exceljs' typings declare none of these internals: these two casts are the only bridge to the types above.
const workbookInternals = (workbook: ExcelJS.stream.xlsx.WorkbookWriter) =>
  workbook as unknown as WorkbookWriterInternals;
const sheetInternals = (sheet: ExcelJS.Worksheet) => sheet as unknown as WorksheetWriterInternals;

/** The style id a cell of this number format and value type gets in the workbook's styles.xml. */
export function styleId(workbook: ExcelJS.stream.xlsx.WorkbookWriter, numFmt: string, type: ExcelJS.ValueType): number {
  return workbookInternals(workbook).styles.addStyleModel({ numFmt }, type);
}

/**
 * What writes sheet XML into a streaming worksheet: after its header rows were committed (which opened <sheetData>)
 * and before sheet.commit() (which closes it). Its stream is looked up once, not per row.
 */
export function sheetXmlStream(sheet: ExcelJS.Worksheet): (xml: string) => void {
  const stream = sheetInternals(sheet).stream;
  if (!stream) throw new Error('the worksheet has no XML stream: committed already, or not a streaming one');
  return (xml) => stream.write(xml);
}

/** Bytes of the worksheet's XML written but not yet taken by the zip's compressor. */
export function sheetBacklog(sheet: ExcelJS.Worksheet): number {
  const entries = sheetInternals(sheet).stream?.pipes ?? [];
  return entries.reduce((n, e) => n + (e._writableState?.length ?? e.writableLength ?? 0), 0);
}
