// The home page's overview of the company (issue 39), one call: its active SIMs (the daily counts /sims reads), its
// usage today, this month and last month (the company's day rows), the ten SIMs using most this month (usage_month
// walked by its month-usage index), how many active SIMs have been silent for 24 hours (counted only up to a bound,
// by usage_last_seen's (company_id, at desc) index), its latest bulk runs (the trail's bulk rows) and how fresh the
// data is. Each a few probes of an index, whatever the fleet's size; every statement scoped to the company.
import { nextDay } from '#domain/usage/period.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { usageAsOf } from './as-of.ts';

/** Silent SIMs are counted up to this; past it the page says "över 1 000". */
export const SILENT_COUNT_CAP = 1000;
export const TOP_SIMS = 10;
export const BULK_RUNS = 3;
const SILENT_HOURS = 24;

export type Overview = {
  activeSims: number;
  today: number;
  thisMonth: number;
  lastMonth: number;
  lastMonthToDate: number;
  top: Array<{ id: number; iccid: string; bytes: number; dataLimitMb: number | null; plan: string }>;
  silent: { count: number; exact: boolean };
  bulk: Array<{ at: string; action: 'bulkActivate' | 'bulkDeactivate'; done: number; total: number }>;
  asOf: string | null;
  /** This Swedish month (YYYY-MM), today (YYYY-MM-DD) and the first day of last month. */
  month: string;
  day: string;
  lastMonthStart: string;
};

/** The first day of the month before the one of `day`. */
function previousMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12-01` : `${y}-${String(m - 1).padStart(2, '0')}-01`;
}

/** The same day of the month before, or that month's last day (31 March -> 28/29 February). */
function sameDayLastMonth(day: string): string {
  const first = previousMonth(day);
  const [y, m] = first.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${first.slice(0, 8)}${String(Math.min(Number(day.slice(8, 10)), last)).padStart(2, '0')}`;
}

const n = (v: unknown) => Number(v ?? 0);

export async function companyOverview(em: Em, companyId: number, now = new Date()): Promise<Overview> {
  const today = swedishDay(now);
  const month = monthStart(today);
  const last = previousMonth(today);
  const silentBefore = new Date(now.getTime() - SILENT_HOURS * 3_600_000).toISOString();
  // Four reads at once, each a prepared statement (the home page is every session's first).
  const [counts, top, bulk, asOf] = await Promise.all([
    readRow<Record<string, string | number | null>>(
      em,
      `select
      (select coalesce(sum(n), 0) from sim_daily_count where company_id = ?) as active,
      (select coalesce(sum(bytes_up + bytes_down), 0) from usage_company_day
        where company_id = ? and day = ?::date) as today,
      (select coalesce(sum(bytes_up + bytes_down), 0) from usage_company_day
        where company_id = ? and day >= ?::date and day < ?::date) as this_month,
      (select coalesce(sum(bytes_up + bytes_down), 0) from usage_company_day
        where company_id = ? and day >= ?::date and day < ?::date) as last_month,
      (select coalesce(sum(bytes_up + bytes_down), 0) from usage_company_day
        where company_id = ? and day >= ?::date and day < ?::date) as last_month_to_date,
      (select count(*) from (select 1 from usage_last_seen l join sim s on s.id = l.sim_id
        where l.company_id = ? and l.at < ?::timestamptz and s.company_id = l.company_id and s.status = 'active'
        order by l.at desc, l.sim_id desc limit ${SILENT_COUNT_CAP + 1}) x) as silent`,
      [
        companyId,
        companyId,
        today,
        companyId,
        month,
        nextDay(today),
        companyId,
        last,
        month,
        companyId,
        last,
        nextDay(sameDayLastMonth(today)),
        companyId,
        silentBefore,
      ],
    ),
    // This month's biggest users, walked in the order of usage_month's month-usage index (the fleet's).
    readRows<{ id: number; iccid: string; bytes: string | number; data_limit: number | null; plan: string }>(
      em,
      `select s.id, s.iccid, (u.bytes_up + u.bytes_down) as bytes, r.data_limit, r.description as plan
    from usage_month u join sim s on s.id = u.sim_id join rate_plan r on r.id = s.rate_plan_id
    where u.company_id = ? and u.month = ?::date and s.company_id = u.company_id and s.status = 'active'
    order by (u.bytes_up + u.bytes_down) desc, u.sim_id desc limit ${TOP_SIMS}`,
      [companyId, month],
    ),
    readRows<{ at: Date | string; action: string; after: unknown }>(
      em,
      `select at, action, after from audit_event where company_id = ? and kind = 'bulk' order by id desc limit ${BULK_RUNS}`,
      [companyId],
    ),
    usageAsOf(em, companyId),
  ]);
  const silent = n(counts?.silent);
  return {
    activeSims: n(counts?.active),
    today: n(counts?.today),
    thisMonth: n(counts?.this_month),
    lastMonth: n(counts?.last_month),
    lastMonthToDate: n(counts?.last_month_to_date),
    top: top.map((r) => ({
      id: r.id,
      iccid: r.iccid,
      bytes: n(r.bytes),
      dataLimitMb: r.data_limit === null ? null : n(r.data_limit),
      plan: r.plan,
    })),
    silent: { count: Math.min(silent, SILENT_COUNT_CAP), exact: silent <= SILENT_COUNT_CAP },
    bulk: bulk.map((b) => {
      const after = (typeof b.after === 'string' ? JSON.parse(b.after) : b.after) as { done?: number; total?: number };
      return {
        at: new Date(b.at).toISOString(),
        action: b.action === 'bulkDeactivate' ? 'bulkDeactivate' : 'bulkActivate',
        done: n(after?.done),
        total: n(after?.total),
      };
    }),
    asOf: asOf ? asOf.toISOString() : null,
    month: month.slice(0, 7),
    day: today,
    lastMonthStart: last,
  };
}
