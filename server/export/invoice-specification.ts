// The invoice specification of one company for a period, as a streamed xlsx file. SIMs are read
// 100 at a time (keyset over the SIM id) with their events, split into month rows and written at once,
// so memory stays flat however many rows; plain SQL rows, so the entity manager's identity map stays empty.
import { PassThrough, Readable } from 'node:stream';
import type { Em } from '#server/db/orm.ts';
import { readRowsPlannedEachTime } from '#server/db/prepared.ts';
import type { Logger } from '#server/log.ts';
import {
  dayInZone,
  firstDayOfMonth,
  lastDayOfMonth,
  dateFromDay,
  monthRows,
  type Period,
  type SimEventInput,
} from '#domain/export/periods.ts';
import { exportFilename, type ExportQuery } from '#domain/export/query.ts';
import { ExportAborted } from '#server/files/streams.ts';
import { EXPORT_MINUTE } from '#server/files/time.ts';
import { XLSX_CONTENT_TYPE } from '#server/files/xlsx-rows.ts';
import type { PlanInfo, SpecHeader, SpecRow } from './spec-rows.ts';
import { usageRows } from './usage-sheet.ts';
import { writeInvoiceSpecification } from './workbook.ts';
export const BATCH_SIZE = 100;

export type CompanyInfo = { id: number; name: string; customerNumber: string; invoiceNote: string };

type SimRow = {
  id: number;
  iccid: string;
  invoice_line_mark: string;
  invoice_line_note: string;
  rate_plan_id: number;
  activated_at: Date | string;
  deactivated_at: Date | string | null;
};
type JoinedRow = SimRow & { kind: string | null; event_plan_id: number | null; at: Date | string | null };

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export async function loadPlans(em: Em): Promise<Map<number, PlanInfo>> {
  const rows = await em.execute<
    Array<{ id: number; description: string; data_limit: number; call: boolean; sms: boolean; roaming: boolean }>
  >('select id, description, data_limit, call, sms, roaming from rate_plan');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        description: r.description,
        dataLimit: Number(r.data_limit),
        call: !!r.call,
        sms: !!r.sms,
        roaming: !!r.roaming,
      },
    ]),
  );
}

/** The next SIMs by id of a company (company, after id, activated before, not deactivated before, how many), each
 * with its events in time order (or none). */
export const SPEC_BATCH_SQL = `with s as (
    select id, iccid, invoice_line_mark, invoice_line_note, rate_plan_id, activated_at, deactivated_at
      from sim
     where company_id = ? and id > ? and activated_at < ? and (deactivated_at is null or deactivated_at >= ?)
     order by id
     limit ?)
  select s.*, e.kind, e.rate_plan_id as event_plan_id, e.at
    from s left join sim_event e on e.sim_id = s.id
   order by s.id, e.at, e.id`;

/** The month rows of the company's SIMs in the period, a batch of SIMs at a time, in SIM id order. */
export async function* specificationRows(
  em: Em,
  companyId: number,
  period: Period,
  opts: { today: number; plans: Map<number, PlanInfo>; batchSize?: number },
): AsyncGenerator<SpecRow[]> {
  const batchSize = opts.batchSize ?? BATCH_SIZE;
  // A SIM matters if its life overlaps the period. Two days of margin cover the time zone; the exact
  // cut is made by monthRows on calendar days.
  const from = dateFromDay(firstDayOfMonth(period.start) - 2);
  const to = dateFromDay(Math.min(lastDayOfMonth(period.end), opts.today) + 2);
  let lastId = 0;
  for (;;) {
    // Planned for its values each time, never as a named prepared statement: a generic plan cannot know that the
    // next SIMs by id are near, and at 10,000 companies it read the company's whole index and sorted it per batch.
    const rows = await readRowsPlannedEachTime<JoinedRow>(em, SPEC_BATCH_SQL, [companyId, lastId, to, from, batchSize]);
    if (rows.length === 0) return;
    const sims: SimRow[] = [];
    const bySim = new Map<number, SimEventInput[]>();
    for (const r of rows) {
      const id = Number(r.id);
      if (id !== lastId) {
        sims.push(r);
        lastId = id;
      }
      if (r.kind === null || r.at === null || r.event_plan_id === null) continue;
      let list = bySim.get(id);
      if (!list) bySim.set(id, (list = []));
      list.push({ kind: r.kind, day: dayInZone(asDate(r.at)), planId: Number(r.event_plan_id) });
    }
    const out: SpecRow[] = [];
    for (const s of sims) {
      const id = Number(s.id);
      let history = bySim.get(id);
      if (!history) {
        // A SIM without recorded history: its own activation (and deactivation) dates on its current plan.
        history = [{ kind: 'activated', day: dayInZone(asDate(s.activated_at)), planId: Number(s.rate_plan_id) }];
        if (s.deactivated_at)
          history.push({
            kind: 'deactivated',
            day: dayInZone(asDate(s.deactivated_at)),
            planId: Number(s.rate_plan_id),
          });
      }
      for (const r of monthRows(history, period, opts.today)) {
        const plan = opts.plans.get(r.planId);
        if (!plan) continue;
        out.push({
          simId: id,
          month: r.month,
          iccid: s.iccid,
          invoiceLineMark: s.invoice_line_mark,
          invoiceLineNote: s.invoice_line_note,
          plan,
          from: r.from,
          to: r.to,
          days: r.days,
        });
      }
    }
    yield out;
    if (sims.length < batchSize) return;
  }
}

/**
 * Starts writing the workbook and returns at once with the stream the HTTP answer reads. Errors after
 * the first byte can only end the download early: they are logged and the stream is destroyed.
 */
export async function invoiceSpecification(
  em: Em,
  log: Logger,
  company: CompanyInfo,
  query: ExportQuery,
  now = new Date(),
): Promise<{ filename: string; contentType: string; stream: ReadableStream<Uint8Array> }> {
  const plans = await loadPlans(em);
  const header: SpecHeader = {
    companyName: company.name,
    customerNumber: company.customerNumber,
    invoiceNote: company.invoiceNote,
    period: { start: query.start, end: query.end },
    generatedAt: EXPORT_MINUTE.format(now),
  };
  const out = new PassThrough();
  const source = specificationRows(em, company.id, header.period, { today: dayInZone(now), plans });
  // The batches read from the database (in the log: a cancelled download stopped reading).
  let batches = 0;
  async function* rows(): AsyncGenerator<SpecRow[]> {
    for await (const batch of source) {
      batches++;
      yield batch;
    }
  }
  const started = Date.now();
  // The sheet "Förbrukning": the same SIMs again, read only once the first two sheets are written.
  const usage = usageRows(em, company.id, header.period, { today: dayInZone(now) });
  writeInvoiceSpecification(out, header, rows(), usage).then(
    (r) =>
      log.info(
        { companyId: company.id, rows: r.rows, usageRows: r.usageRows, batches, ms: Date.now() - started },
        'invoice specification exported',
      ),
    (err) => {
      if (err instanceof ExportAborted || out.destroyed)
        log.info({ companyId: company.id, batches }, 'invoice specification download cancelled');
      else log.error({ err, companyId: company.id }, 'invoice specification export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    },
  );
  return {
    filename: exportFilename(query),
    contentType: XLSX_CONTENT_TYPE,
    // A queue of a few chunks: the default strategy read the file as fast as it was made, whatever the download took.
    stream: Readable.toWeb(out, { strategy: { highWaterMark: 4 } }) as ReadableStream<Uint8Array>,
  };
}
