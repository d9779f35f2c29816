// /usage as a file (usage.csv, usage.xlsx): the company's totals of a period by plan or country, per day or month,
// read a page at a time (companyUsagePages) and written as they come by the writers every download uses
// (server/files/: CSV for Swedish Excel with the formula guard, XLSX rows as sheet XML), into a stream whose reader
// holds the reads back; one that goes away stops them. Amounts in bytes, as numbers a spreadsheet can sum.
import { PassThrough, Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';
import type { Period } from '#domain/usage/period.ts';
import { CSV_CONTENT_TYPE, csvText, writeCsv } from '#server/files/csv.ts';
import { safeText } from '#server/files/formula.ts';
import { caughtUp, ExportAborted, XML_ROWS_BETWEEN_LOOKS } from '#server/files/streams.ts';
import { newStreamingWorkbook, rowXml, sheetXmlWriter, XLSX_CONTENT_TYPE } from '#server/files/xlsx-rows.ts';
import type { Em } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import { companyUsagePages, type PageGroup, type UsageGranularity, type UsageRow } from './company.ts';

export const USAGE_FILE_FORMATS = ['csv', 'xlsx'] as const;
export type UsageFileFormat = (typeof USAGE_FILE_FORMATS)[number];
export type UsageFileQuery = {
  format: UsageFileFormat;
  group: PageGroup;
  granularity: UsageGranularity;
  period: Pick<Period, 'firstDay' | 'lastDay'>;
};

const c = tCompanyUsage.columns;

/** The columns: the period, what it is split by (a plan is its code and name), then bytes up, down, total, records. */
function headers(q: UsageFileQuery): string[] {
  const by = q.group === 'plan' ? [c.planCode, c.plan] : [c[q.group]];
  return [q.granularity === 'month' ? c.month : c.day, ...by, c.bytesUp, c.bytesDown, c.bytes, c.records];
}

/** A row's texts (each behind the formula guard where it comes from a user) and its numbers. */
function cells(q: UsageFileQuery, r: UsageRow): { texts: string[]; numbers: number[] } {
  const by =
    q.group === 'plan'
      ? [r.ratePlanCode ?? '', r.ratePlanDescription ?? '']
      : q.group === 'tag'
        ? [r.tag ?? '']
        : [r.country ?? tCompanyUsage.unknownCountry];
  return { texts: [r.period, ...by], numbers: [r.bytesUp, r.bytesDown, r.bytes, r.records] };
}

export function writeUsageCsv(out: Writable, q: UsageFileQuery, pages: AsyncIterable<UsageRow[]>) {
  return writeCsv(out, headers(q), pages, (r) => {
    const { texts, numbers } = cells(q, r);
    return [...texts.map(csvText), ...numbers.map(String)];
  });
}

export async function writeUsageXlsx(
  out: Writable,
  q: UsageFileQuery,
  pages: AsyncIterable<UsageRow[]>,
): Promise<{ rows: number }> {
  const names = headers(q);
  const workbook = newStreamingWorkbook(out);
  const sheet = workbook.addWorksheet(tCompanyUsage.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  const textColumns = names.length - 4;
  sheet.columns = names.map((_, i) => ({
    width: i < textColumns ? (i === 0 ? 12 : 30) : 16,
    style: { numFmt: i < textColumns ? '@' : '0' },
  }));
  const head = sheet.addRow(names);
  head.font = { bold: true };
  head.commit();
  const xml = sheetXmlWriter(workbook, sheet);
  const text = xml.styleOf('@', ExcelJS.ValueType.String);
  const number = xml.styleOf('0', ExcelJS.ValueType.Number);
  let rows = 0;
  for await (const page of pages) {
    for (const [i, r] of page.entries()) {
      if (i > 0 && i % XML_ROWS_BETWEEN_LOOKS === 0) await caughtUp(sheet, out);
      const { texts, numbers } = cells(q, r);
      xml.write(
        rowXml(rows + 2, [
          ...texts.map((value) => ({ kind: 'text' as const, value: safeText(value), style: text })),
          ...numbers.map((value) => ({ kind: 'number' as const, value, style: number })),
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

/** "Forbrukning_2026-11-01_2026-11-28_plan.csv". */
export const usageFilename = (q: UsageFileQuery) =>
  `Forbrukning_${q.period.firstDay}_${q.period.lastDay}_${q.group}.${q.format}`;

/**
 * Reads the first page (so a database that is down is refused before a byte is sent), then writes the rest in the
 * background into the returned stream; after the first byte an error can only end the download early (logged).
 */
export async function usageFile(
  em: Em,
  log: Logger,
  companyId: number,
  q: UsageFileQuery,
): Promise<{ filename: string; contentType: string; stream: ReadableStream<Uint8Array> }> {
  const source = companyUsagePages(em, companyId, { group: q.group, granularity: q.granularity, period: q.period });
  const first = await source.next();
  async function* pages(): AsyncGenerator<UsageRow[]> {
    if (first.done) return;
    yield first.value;
    yield* source;
  }
  const out = new PassThrough();
  const write = q.format === 'csv' ? writeUsageCsv : writeUsageXlsx;
  write(out, q, pages()).then(
    (r) => log.info({ companyId, format: q.format, group: q.group, rows: r.rows }, 'usage exported'),
    (err: unknown) => {
      void source.return(undefined);
      if (err instanceof ExportAborted || out.destroyed) log.info({ companyId }, 'usage download cancelled');
      else log.error({ err, companyId }, 'usage export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  );
  return {
    filename: usageFilename(q),
    contentType: q.format === 'csv' ? CSV_CONTENT_TYPE : XLSX_CONTENT_TYPE,
    stream: Readable.toWeb(out, { strategy: { highWaterMark: 4 } }) as ReadableStream<Uint8Array>,
  };
}
