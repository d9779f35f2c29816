// The invoice specification's "Förbrukning" (issue 39): each SIM of the specification with its data use per month
// of the period, from the month totals (usage_month, Swedish calendar months, docs/decisions/033). Written after the
// other two sheets, which stay exactly as they were (customers' systems read them): a second pass over the same
// SIMs, read a page at a time by keyset over the SIM id with their month totals of the period (an index probe of
// usage_month's key per SIM), written as sheet XML like the month rows, so memory stays flat at 1,000,000 SIMs.
import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import {
  addMonths,
  dateFromDay,
  dayInZone,
  firstDayOfMonth,
  formatYearMonth,
  lastDayOfMonth,
  monthIndex,
  type Period,
  type YearMonth,
} from '#domain/export/periods.ts';
import type { Em } from '#server/db/orm.ts';
import { readRowsPlannedEachTime } from '#server/db/prepared.ts';
import { safeText } from '#server/files/formula.ts';
import { caughtUp, XML_ROWS_BETWEEN_LOOKS } from '#server/files/streams.ts';
import { rowXml, sheetXmlWriter } from '#server/files/xlsx-rows.ts';
import type { UsageRow } from './spec-rows.ts';

export const SHEET_USAGE = 'Förbrukning';

export const USAGE_COLUMNS = [
  { header: 'Månad', width: 10, text: true },
  { header: 'ICCID', width: 24, text: true },
  { header: 'Fakturamärkning', width: 30, text: true },
  { header: 'Uppladdat (byte)', width: 18, numFmt: '0' },
  { header: 'Nedladdat (byte)', width: 18, numFmt: '0' },
  { header: 'Totalt (byte)', width: 18, numFmt: '0' },
  { header: 'Totalt (GB)', width: 12, numFmt: '0.000' },
] as const;

export const USAGE_BATCH_SIZE = 1_000;

/** The next SIMs by id of the specification (as SPEC_BATCH_SQL selects them), each with its month totals. */
export const USAGE_BATCH_SQL = `with s as (
    select id, iccid, invoice_line_mark, activated_at, deactivated_at
      from sim
     where company_id = ? and id > ? and activated_at < ? and (deactivated_at is null or deactivated_at >= ?)
     order by id
     limit ?)
  select s.*, m.month::text as month, m.bytes_up, m.bytes_down
    from s left join usage_month m on m.company_id = ? and m.sim_id = s.id and m.month >= ?::date and m.month <= ?::date
   order by s.id, m.month`;

type Joined = {
  id: number;
  iccid: string;
  invoice_line_mark: string;
  activated_at: Date | string;
  deactivated_at: Date | string | null;
  month: string | null;
  bytes_up: string | number | null;
  bytes_down: string | number | null;
};

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const isoMonth = (ym: YearMonth) => `${formatYearMonth(ym)}-01`;

/**
 * A row per SIM and month of the period in which the SIM was active (its activation on or before the month's last
 * day, not deactivated before its first, and not after today's month), with that month's totals (0 without any), in
 * SIM id and month order, a page of SIMs at a time.
 */
export async function* usageRows(
  em: Em,
  companyId: number,
  period: Period,
  opts: { today: number; batchSize?: number },
): AsyncGenerator<UsageRow[]> {
  const batchSize = opts.batchSize ?? USAGE_BATCH_SIZE;
  const last = Math.min(monthIndex(period.end), monthIndex(period.start) + 1200);
  const months: YearMonth[] = [];
  for (let ym = period.start; monthIndex(ym) <= last && firstDayOfMonth(ym) <= opts.today; ym = addMonths(ym, 1))
    months.push(ym);
  const first = months[0];
  const end = months[months.length - 1];
  if (!first || !end) return;
  const from = dateFromDay(firstDayOfMonth(first) - 2);
  const to = dateFromDay(Math.min(lastDayOfMonth(end), opts.today) + 2);
  let lastId = 0;
  for (;;) {
    const rows = await readRowsPlannedEachTime<Joined>(em, USAGE_BATCH_SQL, [
      companyId,
      lastId,
      to,
      from,
      batchSize,
      companyId,
      isoMonth(first),
      isoMonth(end),
    ]);
    if (rows.length === 0) return;
    const out: UsageRow[] = [];
    let sims = 0;
    for (let i = 0; i < rows.length;) {
      const sim = rows[i];
      if (!sim) break;
      const id = Number(sim.id);
      const totals = new Map<string, { up: number; down: number }>();
      for (; i < rows.length && Number(rows[i]?.id) === id; i++) {
        const r = rows[i];
        if (r?.month) totals.set(r.month.slice(0, 7), { up: Number(r.bytes_up), down: Number(r.bytes_down) });
      }
      sims++;
      lastId = id;
      const activated = dayInZone(asDate(sim.activated_at));
      const deactivated = sim.deactivated_at === null ? null : dayInZone(asDate(sim.deactivated_at));
      for (const ym of months) {
        if (activated > lastDayOfMonth(ym) || (deactivated !== null && deactivated < firstDayOfMonth(ym))) continue;
        const t = totals.get(formatYearMonth(ym)) ?? { up: 0, down: 0 };
        out.push({
          month: ym,
          iccid: sim.iccid,
          invoiceLineMark: sim.invoice_line_mark,
          bytesUp: t.up,
          bytesDown: t.down,
        });
      }
    }
    yield out;
    if (sims < batchSize) return;
  }
}

/** The usage sheet, after the other two: its headings, then the rows as sheet XML, waiting while `out` is full. */
export async function writeUsageSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  out: Writable,
  batches: AsyncIterable<UsageRow[]>,
): Promise<number> {
  const sheet = workbook.addWorksheet(SHEET_USAGE, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = USAGE_COLUMNS.map((c) => ({
    width: c.width,
    style: 'text' in c ? { numFmt: '@' } : { numFmt: c.numFmt },
  }));
  const head = sheet.addRow(USAGE_COLUMNS.map((c) => c.header));
  head.font = { bold: true };
  head.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: USAGE_COLUMNS.length } };
  const xml = sheetXmlWriter(workbook, sheet);
  const style = {
    text: xml.styleOf('@', ExcelJS.ValueType.String),
    bytes: xml.styleOf('0', ExcelJS.ValueType.Number),
    gb: xml.styleOf('0.000', ExcelJS.ValueType.Number),
  };
  let rows = 0;
  for await (const batch of batches) {
    for (const [i, r] of batch.entries()) {
      if (i > 0 && i % XML_ROWS_BETWEEN_LOOKS === 0) await caughtUp(sheet, out);
      const total = r.bytesUp + r.bytesDown;
      xml.write(
        rowXml(2 + rows, [
          { kind: 'text', value: formatYearMonth(r.month), style: style.text },
          { kind: 'text', value: r.iccid, style: style.text },
          { kind: 'text', value: safeText(r.invoiceLineMark), style: style.text },
          { kind: 'number', value: r.bytesUp, style: style.bytes },
          { kind: 'number', value: r.bytesDown, style: style.bytes },
          { kind: 'number', value: total, style: style.bytes },
          { kind: 'number', value: Math.round(total / 1e6) / 1000, style: style.gb },
        ]),
      );
      rows++;
    }
    await caughtUp(sheet, out);
  }
  sheet.commit();
  return rows;
}
