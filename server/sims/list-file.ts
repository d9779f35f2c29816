// The /sims list as a file (GET /api/sim/export, server/http/sim-export.ts): the company's SIMs matching the
// list's search, read a batch at a time (listSimBatches) and written as they come, as CSV for Swedish Excel or
// as XLSX through exceljs' streaming writer. A slow reader holds the reads back; one that goes away stops them.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { tListExport } from '#domain/texts/list-file.ts';
import { formatDataAmount, yesNo } from '#server/export/workbook.ts';
import { CSV_CONTENT_TYPE, csvField, csvIccid, csvText, writeCsv } from '#server/files/csv.ts';
import { safeText, type TextCell } from '#server/files/formula.ts';
import { caughtUp, ExportAborted, XML_ROWS_BETWEEN_LOOKS } from '#server/files/streams.ts';
import { stockholmText, stockholmWallClock } from '#server/files/time.ts';
import { newStreamingWorkbook, rowXml, sheetXmlWriter, XLSX_CONTENT_TYPE } from '#server/files/xlsx-rows.ts';
import type { Em } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import { z } from '#domain/zod.ts';
import { listQuery } from '#domain/sims/schemas.ts';
import { listSimBatches } from './list.ts';
import type { SimView } from './rows.ts';

export const LIST_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ListExportFormat = (typeof LIST_EXPORT_FORMATS)[number];

/** The query of GET /api/sim/export: the format, and the list's own search (its length limit included). */
export const listExportQuery = z.object({
  format: z
    .string({ error: tListExport.badFormat })
    .pipe(z.enum(LIST_EXPORT_FORMATS, { error: tListExport.badFormat })),
  q: listQuery.shape.q,
});
export type ListExportQuery = z.output<typeof listExportQuery>;

export const BATCH_SIZE = 500;

const c = tListExport.columns;
export const LIST_COLUMNS = [
  { header: c.iccid, width: 24 },
  { header: c.planCode, width: 16 },
  { header: c.plan, width: 38 },
  { header: c.dataAmount, width: 12 },
  { header: c.callAndSms, width: 10 },
  { header: c.roaming, width: 10 },
  { header: c.mark, width: 30 },
  { header: c.note, width: 30 },
  { header: c.activatedAt, width: 18, date: true },
] as const;

function values(s: SimView) {
  const p = s.ratePlan;
  return {
    iccid: s.iccid,
    planCode: p.code,
    plan: p.description,
    dataAmount: formatDataAmount(p.dataLimit),
    callAndSms: yesNo(p.call && p.sms),
    roaming: yesNo(p.roaming),
    mark: s.invoiceLineMark,
    note: s.invoiceLineNote,
  };
}

function csvRecord(s: SimView): string[] {
  const v = values(s);
  return [
    csvIccid(v.iccid),
    csvText(v.planCode),
    csvText(v.plan),
    csvField(v.dataAmount),
    v.callAndSms,
    v.roaming,
    csvText(v.mark),
    csvText(v.note),
    stockholmText(s.activatedAt),
  ];
}

/** The CSV file (UTF-8 with BOM, semicolons, CRLF) to `out`, which it ends; waits while `out` is full. */
export const writeListCsv = (out: Writable, batches: AsyncIterable<SimView[]>): Promise<{ rows: number }> =>
  writeCsv(
    out,
    LIST_COLUMNS.map((col) => col.header),
    batches,
    csvRecord,
  );

/** The XLSX file (one sheet, a text column per text, a date column in Stockholm time) to `out`, which it ends. */
export async function writeListXlsx(out: Writable, batches: AsyncIterable<SimView[]>): Promise<{ rows: number }> {
  const workbook = newStreamingWorkbook(out);
  const sheet = workbook.addWorksheet(tListExport.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = LIST_COLUMNS.map((col) => ({
    width: col.width,
    style: { numFmt: 'date' in col ? 'yyyy-mm-dd hh:mm' : '@' },
  }));
  const head = sheet.addRow(LIST_COLUMNS.map((col) => col.header));
  head.font = { bold: true };
  head.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: LIST_COLUMNS.length } };
  // The rows as sheet XML, as exceljs would write them (docs/decisions/010): its row model made 20,000 rows a second.
  const xml = sheetXmlWriter(workbook, sheet);
  const text = xml.styleOf('@', ExcelJS.ValueType.String);
  const date = xml.styleOf('yyyy-mm-dd hh:mm', ExcelJS.ValueType.Date);
  const cell = (value: TextCell) => ({ kind: 'text' as const, value, style: text });
  let rows = 0;
  for await (const batch of batches) {
    for (const [i, s] of batch.entries()) {
      // A turn for the compressor now and then (caughtUp), as the invoice specification gives it.
      if (i > 0 && i % XML_ROWS_BETWEEN_LOOKS === 0) await caughtUp(sheet, out);
      const v = values(s);
      xml.write(
        rowXml(rows + 2, [
          cell(v.iccid),
          cell(safeText(v.planCode)),
          cell(safeText(v.plan)),
          cell(v.dataAmount),
          cell(v.callAndSms),
          cell(v.roaming),
          cell(safeText(v.mark)),
          cell(safeText(v.note)),
          { kind: 'date', value: stockholmWallClock(s.activatedAt), style: date },
        ]),
      );
      rows++;
    }
    await caughtUp(sheet, out);
  }
  sheet.commit();
  await workbook.commit();
  return { rows };
}

/** "SIM-kort_2026-03-01.csv": the day of the export in Stockholm. */
export function listExportFilename(format: ListExportFormat, now = new Date()): string {
  return `SIM-kort_${stockholmText(now.toISOString()).slice(0, 10)}.${format}`;
}

/**
 * Reads the first batch (so a database that is down is refused as such, before a byte is sent), then writes
 * the rest in the background to the returned stream. After the first byte an error can only end the
 * download early: it is logged and the stream destroyed; a reader that went away is logged as cancelled.
 */
export async function listExport(
  em: Em,
  log: Logger,
  companyId: number,
  query: ListExportQuery,
  opts: { batchSize?: number; now?: Date } = {},
): Promise<{ filename: string; contentType: string; stream: Readable }> {
  const source = listSimBatches(em, companyId, { q: query.q, batchSize: opts.batchSize ?? BATCH_SIZE });
  const first = await source.next();
  let batches = 0;
  async function* counted(): AsyncGenerator<SimView[]> {
    if (first.done) return;
    batches++;
    yield first.value;
    for await (const batch of source) {
      batches++;
      yield batch;
    }
  }
  const out = new PassThrough();
  const started = Date.now();
  const write = query.format === 'csv' ? writeListCsv : writeListXlsx;
  write(out, counted()).then(
    (r) =>
      log.info(
        { companyId, format: query.format, rows: r.rows, batches, ms: Date.now() - started },
        'sim list exported',
      ),
    (err: unknown) => {
      void source.return(undefined);
      if (err instanceof ExportAborted || out.destroyed)
        log.info({ companyId, batches }, 'sim list download cancelled');
      else log.error({ err, companyId }, 'sim list export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  );
  return {
    filename: listExportFilename(query.format, opts.now),
    contentType: query.format === 'csv' ? CSV_CONTENT_TYPE : XLSX_CONTENT_TYPE,
    stream: out,
  };
}

/** GET /api/sim/export in the OpenAPI document: a file is no procedure's JSON, so the path is described here. */
export const listExportOpenApi: ZodOpenApiPathsObject = {
  '/sim/export': {
    get: {
      operationId: 'sim-export',
      tags: ['sims'],
      summary: 'The SIM list (as the /sims search finds it) as a CSV or XLSX file, streamed',
      parameters: [
        { name: 'format', in: 'query', required: true, schema: { type: 'string', enum: [...LIST_EXPORT_FORMATS] } },
        { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
      ],
      responses: {
        '200': {
          description: 'The file, as an attachment named with the day (UTF-8 CSV with BOM and semicolons, or XLSX)',
          content: {
            [CSV_CONTENT_TYPE]: { schema: { type: 'string' } },
            [XLSX_CONTENT_TYPE]: { schema: { type: 'string', contentEncoding: 'binary' } },
          },
        },
        '400': { description: 'A bad format or search: { error, issues }' },
        '401': { description: 'Not logged in: { error, issues }' },
      },
    },
  },
};
