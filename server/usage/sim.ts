// One SIM's usage (issue 39), always of the caller's company and of an active SIM (else NotFound, as the SIM page
// and GET /api/sim/{id} answer): the SIM page's overview in one statement (this Swedish month against the plan,
// the last sighting, its days, its latest records, the company's freshness), and GET /api/sim/{id}/usage's series
// per hour (summed from the raw records), day (usage_day) or month (usage_month). Each read walks one SIM's key
// range of an index: (company_id, sim_id, day|month) of the totals, (company_id, sim_id, start desc) of the raw.
import { NotFound, Invalid } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';
import { tSimUsage } from '#domain/texts/sim-usage.ts';
import { tUsage } from '#domain/texts/usage.ts';
import { nextDay, parseDay, parsePeriod, swedishMidnight, type Period } from '#domain/usage/period.ts';
import { CHART_DAYS, SERIES_MAX_DAYS, SIM_SESSIONS } from '#domain/usage/sim-schemas.ts';
import type { SimUsageOverview, SimUsageSeries, UsageGranularity } from '#domain/usage/sim-schemas.ts';
import { parseOffsetTime, swedishDay } from '#domain/usage/time.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow, readRows } from '#server/db/prepared.ts';
import { USAGE_RAW_DAYS } from './partitions.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The days the overview reads: the chart's longest. */
const OVERVIEW_DAYS = Math.max(...CHART_DAYS);

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The Swedish day `n` days before `day` (calendar days, whatever the DST). */
const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/** The first day of the month after the month of `day`. */
function nextMonth(day: string): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/** The first day of the month `n` months before the month of `day`. */
function monthsBefore(day: string, n: number): string {
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

type Num = number | string | null;
type OverviewRow = {
  data_limit: Num;
  month_up: Num;
  month_down: Num;
  seen_at: string | null;
  seen_network: string | null;
  seen_country: string | null;
  as_of: string | null;
  days: unknown;
  sessions: unknown;
};
type SessionJson = {
  start: string;
  end: string;
  up: Num;
  down: Num;
  network: string | null;
  country: string | null;
  rat: string | null;
};

/** A json(b) column as the driver hands it over: parsed already, or its text (PGlite). */
function jsonList<T>(v: unknown): T[] {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

const AS_OF = `(select ${iso('a.at')} from usage_last_seen a where a.company_id = s.company_id order by a.at desc limit 1)`;

/**
 * The overview's one statement: the SIM (active, the company's) with its plan, its month's total and last sighting
 * joined by key, and its days and latest records gathered by subqueries over the SIM's own index range. Parameters:
 * the month, the first and last day, the oldest raw start, the SIM and the company.
 */
export const OVERVIEW_SQL = `select r.data_limit, m.bytes_up as month_up, m.bytes_down as month_down,
    ${iso('l.at')} as seen_at, l.network as seen_network, l.country as seen_country, ${AS_OF} as as_of,
    (select json_agg(json_build_object('d', to_char(d.day, 'YYYY-MM-DD'), 'b', d.bytes_up + d.bytes_down))
      from usage_day d where d.company_id = s.company_id and d.sim_id = s.id and d.day between ?::date and ?::date) as days,
    (select json_agg(x) from (
      select ${iso('u.start')} as start, ${iso('u."end"')} as "end", u.bytes_up as up, u.bytes_down as down,
        u.network, u.country, u.rat
      from usage_record u where u.company_id = s.company_id and u.sim_id = s.id and u.start >= ?::timestamptz
      order by u.start desc limit ${SIM_SESSIONS}) x) as sessions
  from sim s join rate_plan r on r.id = s.rate_plan_id
  left join usage_month m on m.company_id = s.company_id and m.sim_id = s.id and m.month = ?::date
  left join usage_last_seen l on l.company_id = s.company_id and l.sim_id = s.id
  where s.id = ? and s.company_id = ? and s.status = 'active'`;

export type UsageReadOptions = { now?: Date; rawDays?: number };

/** The SIM page's usage: one of the company's active SIMs, in one statement. */
export async function simUsageOverview(
  em: Em,
  companyId: number,
  simId: number,
  { now = new Date(), rawDays = USAGE_RAW_DAYS }: UsageReadOptions = {},
): Promise<SimUsageOverview> {
  const today = swedishDay(now);
  const firstDay = daysBefore(today, OVERVIEW_DAYS - 1);
  const month = `${today.slice(0, 7)}-01`;
  const rawOldest = new Date(now.getTime() - rawDays * DAY_MS).toISOString();
  const row = await readRow<OverviewRow>(em, OVERVIEW_SQL, [firstDay, today, rawOldest, month, simId, companyId]);
  if (!row) throw new NotFound(t.errors.simNotFound);
  const byDay = new Map(jsonList<{ d: string; b: Num }>(row.days).map((d) => [d.d, Number(d.b ?? 0)]));
  const days: SimUsageOverview['days'] = [];
  for (let day = firstDay; day <= today; day = nextDay(day)) days.push({ day, bytes: byDay.get(day) ?? 0 });
  const up = Number(row.month_up ?? 0);
  const down = Number(row.month_down ?? 0);
  return {
    simId,
    month: today.slice(0, 7),
    monthBytesUp: up,
    monthBytesDown: down,
    monthBytes: up + down,
    dataLimitMb: row.data_limit === null ? null : Number(row.data_limit),
    lastSeen: row.seen_at ? { at: row.seen_at, network: row.seen_network, country: row.seen_country } : null,
    days,
    sessions: jsonList<SessionJson>(row.sessions).map((s) => ({
      start: s.start,
      end: s.end,
      bytesUp: Number(s.up ?? 0),
      bytesDown: Number(s.down ?? 0),
      network: s.network,
      country: s.country,
      rat: s.rat,
    })),
    asOf: row.as_of,
  };
}

/** The SIM (the company's, active) and the company's freshness, or no row. */
const SIM_SQL = `select ${AS_OF} as as_of from sim s where s.id = ? and s.company_id = ? and s.status = 'active'`;

const HOURS_SQL = `select to_char(date_trunc('hour', start at time zone 'UTC'), 'YYYY-MM-DD"T"HH24') as k,
    sum(bytes_up)::bigint as up, sum(bytes_down)::bigint as down
  from usage_record where company_id = ? and sim_id = ? and start >= ?::timestamptz and start < ?::timestamptz
  group by 1`;
const DAYS_SQL = `select to_char(day, 'YYYY-MM-DD') as k, bytes_up as up, bytes_down as down
  from usage_day where company_id = ? and sim_id = ? and day between ?::date and ?::date`;
const MONTHS_SQL = `select to_char(month, 'YYYY-MM') as k, bytes_up as up, bytes_down as down
  from usage_month where company_id = ? and sim_id = ? and month between ?::date and ?::date`;

export type SeriesQuery = { granularity: UsageGranularity; from?: string; to?: string };

/** The period asked for, with the defaults filled in; a refusal names its field (Invalid, 400). */
export function seriesPeriod(q: SeriesQuery, now: Date, rawDays: number): Period {
  // The default hours are the 24 whole hours up to the end of this one.
  const hourEnd = new Date(Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS);
  const toText = q.to ?? (q.granularity === 'hour' ? hourEnd.toISOString() : swedishDay(now));
  let fromText = q.from;
  if (fromText === undefined) {
    const toDay = parseDay(toText);
    const toTime = toDay ? null : parseOffsetTime(toText);
    if (!toDay && !toTime) throw Invalid.field('to', tUsage.period.to);
    if (q.granularity === 'hour') {
      const end = toTime ?? swedishMidnight(nextDay(toDay ?? ''));
      fromText = new Date(end.getTime() - 24 * HOUR_MS).toISOString();
    } else {
      const lastDay = toDay ?? swedishDay(new Date((toTime?.getTime() ?? 0) - 1));
      fromText = q.granularity === 'day' ? daysBefore(lastDay, 29) : monthsBefore(lastDay, 11);
    }
  }
  const max = SERIES_MAX_DAYS[q.granularity];
  // The period's own checks, without a length bound first: the too long refusal is this granularity's.
  const parsed = parsePeriod(fromText, toText, Number.MAX_SAFE_INTEGER);
  if (!parsed.ok) throw Invalid.field(parsed.field, parsed.message);
  if (!parsePeriod(fromText, toText, max).ok) throw Invalid.field('to', tSimUsage.api.tooLong(q.granularity, max));
  if (q.granularity === 'hour' && parsed.period.from.getTime() < now.getTime() - rawDays * DAY_MS)
    throw Invalid.field('from', tSimUsage.api.tooOld(rawDays));
  return parsed.period;
}

type SeriesRow = { k: string; up: Num; down: Num };

/**
 * One of the company's active SIMs' usage per hour, day or month of a period: every one of them, oldest first, 0
 * where nothing was used. Hours are UTC hours (Stockholm's offset is whole hours, so they are Swedish hours too)
 * and hold the records that started in them; days and months are Swedish.
 */
export async function simUsageSeries(
  em: Em,
  companyId: number,
  simId: number,
  q: SeriesQuery,
  { now = new Date(), rawDays = USAGE_RAW_DAYS }: UsageReadOptions = {},
): Promise<SimUsageSeries> {
  const period = seriesPeriod(q, now, rawDays);
  const { granularity } = q;
  const buckets: Array<{ period: string; start: Date; end: Date }> = [];
  let read: Promise<SeriesRow[]>;
  if (granularity === 'hour') {
    const first = Math.floor(period.from.getTime() / HOUR_MS) * HOUR_MS;
    for (let at = first; at < period.to.getTime(); at += HOUR_MS)
      buckets.push({ period: new Date(at).toISOString(), start: new Date(at), end: new Date(at + HOUR_MS) });
    read = readRows<SeriesRow>(em, HOURS_SQL, [companyId, simId, period.from.toISOString(), period.to.toISOString()]);
  } else if (granularity === 'day') {
    for (let day = period.firstDay; day <= period.lastDay; day = nextDay(day))
      buckets.push({ period: day, start: swedishMidnight(day), end: swedishMidnight(nextDay(day)) });
    read = readRows<SeriesRow>(em, DAYS_SQL, [companyId, simId, period.firstDay, period.lastDay]);
  } else {
    const firstMonth = `${period.firstDay.slice(0, 7)}-01`;
    for (let m = firstMonth; m <= period.lastDay; m = nextMonth(m))
      buckets.push({ period: m.slice(0, 7), start: swedishMidnight(m), end: swedishMidnight(nextMonth(m)) });
    read = readRows<SeriesRow>(em, MONTHS_SQL, [companyId, simId, firstMonth, period.lastDay]);
  }
  const [sim, rows] = await Promise.all([readRow<{ as_of: string | null }>(em, SIM_SQL, [simId, companyId]), read]);
  if (!sim) throw new NotFound(t.errors.simNotFound);
  // An hour's key is its UTC hour (YYYY-MM-DDTHH), a bucket's period its ISO start.
  const byKey = new Map(rows.map((r) => [r.k, r]));
  const items = buckets.map((b) => {
    const row = byKey.get(granularity === 'hour' ? b.period.slice(0, 13) : b.period);
    const up = Number(row?.up ?? 0);
    const down = Number(row?.down ?? 0);
    return {
      period: b.period,
      start: b.start.toISOString(),
      end: b.end.toISOString(),
      bytesUp: up,
      bytesDown: down,
      bytes: up + down,
    };
  });
  return {
    simId,
    granularity,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    items,
    asOf: sim.as_of,
  };
}
