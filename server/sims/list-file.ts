// Long: the file's columns, both formats' writers and the path's OpenAPI description, one export.
// The /sims list as a file (GET /api/sim/export, server/http/sim-export.ts): the company's SIMs matching the
// list's search and view (sort, usage filter), read a batch at a time (listSimBatches) with each batch's usage
// (one read a batch) and written as they come, as CSV for Swedish Excel or as XLSX through exceljs' streaming
// writer. A slow reader holds the reads back; one that goes away stops them.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { tPause } from '#domain/texts/pause.ts';
import { tListExport } from '#domain/texts/list-file.ts';
import { formatDataAmount, yesNo } from '#server/export/workbook.ts';
import { CSV_CONTENT_TYPE, csvField, csvIccid, csvText, writeCsv } from '#server/files/csv.ts';
import { safeText, type TextCell } from '#server/files/formula.ts';
import { caughtUp, ExportAborted, readAhead, XML_ROWS_BETWEEN_LOOKS } from '#server/files/streams.ts';
import { stockholmText, stockholmWallClock } from '#server/files/time.ts';
import { newStreamingWorkbook, rowXml, sheetXmlWriter, XLSX_CONTENT_TYPE } from '#server/files/xlsx-rows.ts';
import type { Em } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import { z } from '#domain/zod.ts';
import { listQuery } from '#domain/sims/schemas.ts';
import { FILTERS, SORTS, viewFields, viewOf } from '#domain/sims/view.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { usageAgainstPlan } from '#domain/usage/format.ts';
import { listSimBatches } from './list.ts';
import type { SimView } from './rows.ts';
import { usageAsOf } from '#server/usage/as-of.ts';
import { withUsageAndTags, type SimUsage } from './usage.ts';

/** A row of the file: the SIM, its usage and its tags. */
type Listed = SimView & { usage: SimUsage; tags: string[] };

export const LIST_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ListExportFormat = (typeof LIST_EXPORT_FORMATS)[number];

/** The query of GET /api/sim/export: the format, and the list's own search (its length limit included). */
export const listExportQuery = z.object({
  format: z
    .string({ error: tListExport.badFormat })
    .pipe(z.enum(LIST_EXPORT_FORMATS, { error: tListExport.badFormat })),
  q: listQuery.shape.q,
  tag: listQuery.shape.tag,
  status: listQuery.shape.status,
  ...viewFields,
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
  { header: tFleetUsage.columns.monthBytes, width: 16, number: true },
  { header: tFleetUsage.columns.percent, width: 12, number: true },
  { header: tFleetUsage.columns.lastSeen, width: 18, date: true },
  { header: tFleetUsage.columns.network, width: 10 },
  { header: tFleetUsage.columns.country, width: 8 },
  { header: c.status, width: 10 },
  { header: c.tags, width: 30 },
] as const;

/** Aktiv or Pausad (the list holds the fleet: active and paused SIMs). */
const stateText = (s: SimView) => (s.status === 'paused' ? tPause.paused : tPause.active);

/** A SIM's tags in one cell: "Göteborg, Kylbilar". */
const tagsText = (s: Listed) => s.tags.join(', ');

/** This month's share of the plan's amount in whole percent (the page's figure), or null. */
const percentOf = (s: Listed) => usageAgainstPlan(s.usage.monthBytes, s.ratePlan.dataLimit).percent;

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

function csvRecord(s: Listed): string[] {
  const v = values(s);
  const u = s.usage;
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
    String(u.monthBytes),
    String(percentOf(s) ?? ''),
    u.lastSeenAt ? stockholmText(u.lastSeenAt) : '',
    csvText(u.lastSeenNetwork ?? ''),
    csvText(u.lastSeenCountry ?? ''),
    stateText(s),
    csvText(tagsText(s)),
  ];
}

/** The CSV file (UTF-8 with BOM, semicolons, CRLF) to `out`, which it ends; waits while `out` is full. */
export const writeListCsv = (out: Writable, batches: AsyncIterable<Listed[]>): Promise<{ rows: number }> =>
  writeCsv(
    out,
    LIST_COLUMNS.map((col) => col.header),
    batches,
    csvRecord,
  );

/** The XLSX file (one sheet, a text column per text, a date column in Stockholm time) to `out`, which it ends. */
export async function writeListXlsx(out: Writable, batches: AsyncIterable<Listed[]>): Promise<{ rows: number }> {
  const workbook = newStreamingWorkbook(out);
  const sheet = workbook.addWorksheet(tListExport.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = LIST_COLUMNS.map((col) => ({
    width: col.width,
    style: { numFmt: 'date' in col ? 'yyyy-mm-dd hh:mm' : 'number' in col ? '0' : '@' },
  }));
  const head = sheet.addRow(LIST_COLUMNS.map((col) => col.header));
  head.font = { bold: true };
  head.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: LIST_COLUMNS.length } };
  // The rows as sheet XML, as exceljs would write them (docs/decisions/010): its row model made 20,000 rows a second.
  const xml = sheetXmlWriter(workbook, sheet);
  const text = xml.styleOf('@', ExcelJS.ValueType.String);
  const date = xml.styleOf('yyyy-mm-dd hh:mm', ExcelJS.ValueType.Date);
  const whole = xml.styleOf('0', ExcelJS.ValueType.Number);
  const cell = (value: TextCell) => ({ kind: 'text' as const, value, style: text });
  // An empty cell is a text cell of nothing (no percent without a plan amount, never seen).
  const usageCells = (s: Listed) => {
    const pct = percentOf(s);
    const seen = s.usage.lastSeenAt;
    return [
      pct === null ? cell('') : { kind: 'number' as const, value: pct, style: whole },
      seen ? { kind: 'date' as const, value: stockholmWallClock(seen), style: date } : cell(''),
    ];
  };
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
          { kind: 'number', value: s.usage.monthBytes, style: whole },
          ...usageCells(s),
          cell(safeText(s.usage.lastSeenNetwork ?? '')),
          cell(safeText(s.usage.lastSeenCountry ?? '')),
          cell(stateText(s)),
          cell(safeText(tagsText(s))),
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
  const now = opts.now ?? new Date();
  const view = viewOf(query.sort, query.filter);
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  const sims = listSimBatches(em, companyId, {
    q: query.q,
    tag: query.tag,
    status: query.status,
    batchSize,
    view,
    now,
  });
  // Each batch with its usage and tags, each read for the batch at once, the next batch read while one is written.
  // How fresh the company's data is, read once for the file.
  const asOf = await usageAsOf(em, companyId);
  async function* withTheirUsage(): AsyncGenerator<Listed[]> {
    for await (const batch of readAhead(sims)) yield withUsageAndTags(em, companyId, batch, { now, asOf });
  }
  const source = readAhead(withTheirUsage());
  const first = await source.next();
  let batches = 0;
  async function* counted(): AsyncGenerator<Listed[]> {
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
      summary: 'The SIM list (as /sims searches, sorts and filters it) as a CSV or XLSX file, streamed',
      parameters: [
        { name: 'format', in: 'query', required: true, schema: { type: 'string', enum: [...LIST_EXPORT_FORMATS] } },
        { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
        {
          name: 'sort',
          in: 'query',
          required: false,
          description:
            "The list's order (/sims' sort): activation day, this Swedish month's usage or last seen, each either way; SIMs without a figure come last. Default activated-desc.",
          schema: { type: 'string', enum: [...SORTS] },
        },
        {
          name: 'filter',
          in: 'query',
          required: false,
          description:
            "/sims' usage filter: over 80 % of the plan's data amount this month, no traffic for 24 hours or 7 days (seen before), or never seen. A filter sorts by its own figure.",
          schema: { type: 'string', enum: [...FILTERS] },
        },
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
