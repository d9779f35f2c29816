// The company's usage (issue 39): totals per Swedish day or month, by SIM, rate plan, country or tag (issue 40), a page at a time by
// keyset on (period, key), for GET /api/usage, /usage and its files. Every statement is scoped to the company.
// By plan and by country: the company's day rows (usage_company_day, a few a day) summed for the period. By SIM: the
// SIMs' own totals (usage_day, usage_month) walked in (period, sim) order by their (company_id, day|month, sim_id)
// index (Migration20261128200000_usage_home), so a page reads its own rows and one more at 1,000,000 SIMs.
import { nextDay, type Period } from '#domain/usage/period.ts';
import type { Em } from '#server/db/orm.ts';
import { readRows } from '#server/db/prepared.ts';
import { PAGE_GROUPS, type PageGroup } from '#domain/usage/groups.ts';

export const USAGE_GROUPS = ['sim', 'plan', 'country', 'tag'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];
export { PAGE_GROUPS, type PageGroup };
export const USAGE_GRANULARITIES = ['day', 'month'] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

/** Where a page starts: after this period (YYYY-MM-DD or YYYY-MM) and key (a SIM's or plan's id, a country, a tag). */
export type UsageAfter = { period: string; key: string };

/** One total: a period's bytes of one SIM, plan, country or tag (the others null). */
export type UsageRow = {
  period: string;
  simId: number | null;
  iccid: string | null;
  ratePlanId: number | null;
  ratePlanCode: string | null;
  ratePlanDescription: string | null;
  country: string | null;
  tag: string | null;
  bytesUp: number;
  bytesDown: number;
  bytes: number;
  records: number;
};

type Raw = {
  period: string;
  key: string | number;
  iccid?: string | null;
  code?: string | null;
  description?: string | null;
  up: string | number;
  down: string | number;
  records: string | number;
};

/** The first day of the months the period touches, and the first day after its last month (month totals are whole). */
export function monthBounds(p: Pick<Period, 'firstDay' | 'lastDay'>): { first: string; after: string } {
  const last = p.lastDay.slice(0, 7);
  const [y, m] = last.split('-').map(Number) as [number, number];
  const after = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { first: `${p.firstDay.slice(0, 7)}-01`, after };
}

/** The days a read covers: the period's own for days, its whole months for months; `after` excluded. */
const bounds = (p: Pick<Period, 'firstDay' | 'lastDay'>, g: UsageGranularity) =>
  g === 'month' ? monthBounds(p) : { first: p.firstDay, after: nextDay(p.lastDay) };

/** The period's text in SQL: a day's YYYY-MM-DD, a month's YYYY-MM. */
const periodText = (col: string, g: UsageGranularity) =>
  g === 'month' ? `to_char(date_trunc('month', ${col}), 'YYYY-MM')` : `to_char(${col}, 'YYYY-MM-DD')`;

/** A cursor's period as the first day it stands for (a month's 1st), for the keyset's comparison. */
const periodDay = (period: string) => (period.length === 7 ? `${period}-01` : period);

/**
 * By plan or by country: the company's day rows of the covered days, summed per period and key, after the cursor.
 * By tag: the company's day rows by tag (usage_tag_day), of the tags some SIM of the company has now (a tag taken
 * off every SIM has left the company's words), or only of `tags` when given.
 */
function groupedSql(group: 'plan' | 'country' | 'tag', g: UsageGranularity, after: boolean, tags: boolean): string {
  const key = { plan: 'c.rate_plan_id', country: 'c.country', tag: 'c.tag' }[group];
  const per = g === 'month' ? `date_trunc('month', c.day)::date` : 'c.day';
  const plan = group === 'plan' ? ', r.code, r.description' : '';
  const conditions = [
    group === 'tag' ? 'exists (select 1 from sim_tag s where s.company_id = ? and s.tag = t.key)' : undefined,
    after ? `(t.p, t.key) > (?::date, ?${group === 'plan' ? '::int' : '::text'})` : undefined,
  ].filter((c) => c !== undefined);
  return `select ${periodText('t.p', g)} as period, t.key, t.up, t.down, t.records${plan} from (
      select ${per} as p, ${key} as key, sum(c.bytes_up)::bigint as up, sum(c.bytes_down)::bigint as down,
        sum(c.records)::bigint as records
      from ${group === 'tag' ? 'usage_tag_day' : 'usage_company_day'} c
      where c.company_id = ? and c.day >= ?::date and c.day < ?::date${tags ? ' and c.tag = any(?::text[])' : ''}
      group by 1, 2
    ) t${group === 'plan' ? ' join rate_plan r on r.id = t.key' : ''}
    ${conditions.length ? `where ${conditions.join(' and ')}` : ''}
    order by t.p, t.key limit ?`;
}

/** The SIMs that have every tag of `n` (the list's filter, domain/sims/tags.ts): a probe of sim_tag's key each. */
const simTagsSql = (n: number) =>
  Array.from(
    { length: n },
    () =>
      `and exists (select 1 from sim_tag x where x.company_id = u.company_id and x.sim_id = u.sim_id and x.tag = ?)`,
  ).join(' ');

/** By SIM: the SIMs' totals in (period, sim) order, each joined with its SIM (a probe by key) for the ICCID. */
function simSql(g: UsageGranularity, after: boolean, tags: number): string {
  const [table, col] = g === 'month' ? ['usage_month', 'month'] : ['usage_day', 'day'];
  return `select ${periodText(`u.${col}`, g)} as period, u.sim_id as key, s.iccid,
      u.bytes_up as up, u.bytes_down as down, u.records
    from ${table} u join sim s on s.id = u.sim_id and s.company_id = u.company_id
    where u.company_id = ? and u.${col} >= ?::date and u.${col} < ?::date ${simTagsSql(tags)}
    ${after ? `and (u.${col}, u.sim_id) > (?::date, ?::int)` : ''}
    order by u.${col}, u.sim_id limit ?`;
}

function rowOf(group: UsageGroup, r: Raw): UsageRow {
  const up = Number(r.up);
  const down = Number(r.down);
  return {
    period: r.period,
    simId: group === 'sim' ? Number(r.key) : null,
    iccid: group === 'sim' ? (r.iccid ?? null) : null,
    ratePlanId: group === 'plan' ? Number(r.key) : null,
    ratePlanCode: group === 'plan' ? (r.code ?? null) : null,
    ratePlanDescription: group === 'plan' ? (r.description ?? null) : null,
    // '' in the table: the network did not say.
    country: group === 'country' ? String(r.key) || null : null,
    tag: group === 'tag' ? String(r.key) : null,
    bytesUp: up,
    bytesDown: down,
    bytes: up + down,
    records: Number(r.records),
  };
}

/** The cursor's key of a row: what the next page starts after. */
export const keyOf = (r: UsageRow): string => String(r.simId ?? r.ratePlanId ?? r.country ?? r.tag ?? '');

/**
 * A page of the company's usage in the period: at most `limit` rows in (period, key) order after `after`, and
 * whether more follow (one more is read, never counted).
 */
export async function companyUsage(
  em: Em,
  companyId: number,
  q: {
    group: UsageGroup;
    granularity: UsageGranularity;
    period: Pick<Period, 'firstDay' | 'lastDay'>;
    limit: number;
    after?: UsageAfter;
    /** By SIM: the SIMs with every one of these tags (now); by tag: these tags only. Not by plan or country. */
    tags?: readonly string[];
  },
): Promise<{ rows: UsageRow[]; more: boolean }> {
  const { first, after: end } = bounds(q.period, q.granularity);
  const tags = q.tags ?? [];
  if (tags.length && (q.group === 'plan' || q.group === 'country')) throw new Error('tags narrow by SIM or by tag');
  const sql =
    q.group === 'sim'
      ? simSql(q.granularity, !!q.after, tags.length)
      : groupedSql(q.group, q.granularity, !!q.after, tags.length > 0);
  const params: unknown[] = [companyId, first, end];
  if (q.group === 'sim') params.push(...tags);
  else if (tags.length) params.push(`{${tags.map((x) => JSON.stringify(x)).join(',')}}`);
  if (q.group === 'tag') params.push(companyId);
  if (q.after)
    params.push(
      periodDay(q.after.period),
      q.group === 'country' || q.group === 'tag' ? q.after.key : Number(q.after.key),
    );
  params.push(q.limit + 1);
  const raw = await readRows<Raw>(em, sql, params);
  const rows = raw.slice(0, q.limit).map((r) => rowOf(q.group, r));
  return { rows, more: raw.length > q.limit };
}

/** The whole period's rows by plan, country or tag, a page at a time (the files and the page read them so). */
export async function* companyUsagePages(
  em: Em,
  companyId: number,
  q: { group: PageGroup; granularity: UsageGranularity; period: Pick<Period, 'firstDay' | 'lastDay'> },
  pageSize = 500,
): AsyncGenerator<UsageRow[]> {
  let after: UsageAfter | undefined;
  for (;;) {
    const page = await companyUsage(em, companyId, { ...q, limit: pageSize, after });
    if (page.rows.length > 0) yield page.rows;
    const last = page.rows.at(-1);
    if (!page.more || !last) return;
    after = { period: last.period, key: keyOf(last) };
  }
}
