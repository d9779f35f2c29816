// Taking usage in (docs/decisions/033): one batch of the network's records, checked, looked up and stored in one
// transaction, set-based: one query finds the batch's SIMs, one statement inserts the new raw records and adds
// exactly those to the day and month totals, the company's day by plan and country and by tag and the last sighting,
// one keeps the unknown ICCIDs' records aside.
// A record seen before (same source and id) is skipped by the insert, so it adds nothing: a batch sent again, or
// by two processes at once, counts once. Every door (the CLI's import, the REST door) calls ingestUsage.
import { DeadlockException } from '@mikro-orm/core';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Em } from '#server/db/orm.ts';
import { checkUsageRecord, type UsageRecord } from '#domain/usage/record.ts';
import { USAGE_SOURCE_PATTERN } from '#domain/usage/source.ts';
import { USAGE_ZONE } from '#domain/usage/time.ts';
import { batchTotals, evaluateUsageRules, usageRulesOf, type BatchTotals, type Fired } from '#server/rules/evaluate.ts';
import { ensurePartitions, partitionsForRecord, rawOldest, USAGE_RAW_DAYS, type Partition } from './partitions.ts';

export type IngestCounts = {
  /** New records stored and counted in the totals. */
  taken: number;
  /** Records seen before (in the store, kept aside, or earlier in the same batch): nothing changed. */
  duplicates: number;
  /** New records of an ICCID that is no active SIM's, kept aside for the operator. */
  unknownIccid: number;
  /** Records refused, by their index in the batch, with the reason in Swedish. */
  refused: Array<{ index: number; reason: string }>;
};

export type IngestOptions = {
  now?: Date;
  rawDays?: number;
  /** Told, after the batch is committed, the companies whose SIMs had records taken (their pages are live). */
  onTaken?: (companies: number[]) => void | Promise<void>;
  /** Told, after the batch is committed, what the companies' usage rules did in it (for their toasts). */
  onFired?: (fired: Fired[]) => void | Promise<void>;
};

/** Deadlocks between two batches updating the same totals in another order: the loser is run again. */
const DEADLOCK_TRIES = 3;
/**
 * Records checked between two turns of the event loop (about 4 microseconds a record): the REST door's batch of
 * 10,000 is checked in ten slices of a few milliseconds, so the pages and calls the same server answers meanwhile
 * wait for one slice, not for the whole batch (bench:usage's reads door runs them beside the ingest).
 */
export const CHECK_SLICE = 1_000;

export const validSource = (source: string): boolean => USAGE_SOURCE_PATTERN.test(source);

const INSERT_TAKEN = `with input as (
    select * from json_to_recordset(?::json) as t(c int, s int, p int, r text, a timestamptz, b timestamptz,
      u bigint, d bigint, n text, y text, t text, i text)
  ), ins as (
    insert into usage_record (company_id, start, source, record_id, sim_id, "end", bytes_up, bytes_down, network,
      country, rat, imei, received_at)
    select c, a, ?, r, s, b, u, d, n, y, t, i, ?::timestamptz from input
    on conflict do nothing
    returning company_id, sim_id, start, "end", bytes_up, bytes_down, network, country
  ), plans as (
    -- The SIMs' plans, for the company's totals by plan: from the batch's own lookup, one per SIM.
    select distinct on (s) s as sim_id, p as plan_id from input order by s
  ), per_day as (
    select company_id, sim_id, (start at time zone '${USAGE_ZONE}')::date as day, sum(bytes_up)::bigint as up,
      sum(bytes_down)::bigint as down, count(*)::int as n
    from ins group by 1, 2, 3
  ), days as (
    insert into usage_day (company_id, sim_id, day, bytes_up, bytes_down, records)
    select company_id, sim_id, day, up, down, n from per_day order by 1, 2, 3
    on conflict (company_id, sim_id, day) do update set bytes_up = usage_day.bytes_up + excluded.bytes_up,
      bytes_down = usage_day.bytes_down + excluded.bytes_down, records = usage_day.records + excluded.records
    returning company_id, sim_id, day, bytes_up + bytes_down as bytes
  ), months as (
    insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records)
    select company_id, sim_id, date_trunc('month', day)::date, sum(up)::bigint, sum(down)::bigint, sum(n)::int
    from per_day group by 1, 2, 3 order by 1, 2, 3
    on conflict (company_id, sim_id, month) do update set bytes_up = usage_month.bytes_up + excluded.bytes_up,
      bytes_down = usage_month.bytes_down + excluded.bytes_down, records = usage_month.records + excluded.records
    returning company_id, sim_id, month, bytes_up + bytes_down as bytes
  ), seen as (
    insert into usage_last_seen (company_id, sim_id, at, network, country)
    select distinct on (company_id, sim_id) company_id, sim_id, "end", network, country
    from ins order by company_id, sim_id, "end" desc
    on conflict (company_id, sim_id) do update set at = excluded.at,
      network = coalesce(excluded.network, usage_last_seen.network),
      country = coalesce(excluded.country, usage_last_seen.country)
    where usage_last_seen.at <= excluded.at
    returning 1
  ), tag_days as (
    -- The company's days by tag: each SIM's day under every tag it has now (issue 40; a tag counts from when it is set).
    insert into usage_tag_day (company_id, tag, day, bytes_up, bytes_down, records)
    select d.company_id, t.tag, d.day, sum(d.up)::bigint, sum(d.down)::bigint, sum(d.n)::int
    from per_day d join sim_tag t on t.company_id = d.company_id and t.sim_id = d.sim_id
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (company_id, tag, day) do update set
      bytes_up = usage_tag_day.bytes_up + excluded.bytes_up,
      bytes_down = usage_tag_day.bytes_down + excluded.bytes_down,
      records = usage_tag_day.records + excluded.records
    returning 1
  ), company_days as (
    -- Last: these few rows are every batch's of the company, so they are held the shortest before the commit.
    insert into usage_company_day (company_id, day, rate_plan_id, country, bytes_up, bytes_down, records)
    select ins.company_id, (ins.start at time zone '${USAGE_ZONE}')::date, plans.plan_id, coalesce(ins.country, ''),
      sum(ins.bytes_up)::bigint, sum(ins.bytes_down)::bigint, count(*)::int
    from ins join plans on plans.sim_id = ins.sim_id
    group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (company_id, day, rate_plan_id, country) do update set
      bytes_up = usage_company_day.bytes_up + excluded.bytes_up,
      bytes_down = usage_company_day.bytes_down + excluded.bytes_down,
      records = usage_company_day.records + excluded.records
    returning 1
  )
  select (select count(*) from ins)::int as taken, (select count(*) from days)::int as days,
    (select count(*) from months)::int as months, (select count(*) from seen)::int as seen,
    (select count(*) from tag_days)::int as tag_days, (select count(*) from company_days)::int as company_days,
    tot.c, tot.s, tot.p, tot.d, tot.db, tot.mb
  from (
    -- For the usage rules (when a company of the batch has one on): each SIM's day and month totals as they now are,
    -- as arrays (in one order: one pass) in their text form, handed as they are to the rules' statement.
    select array_agg(d.company_id)::text as c, array_agg(d.sim_id)::text as s, array_agg(pl.plan_id)::text as p,
      array_agg(d.day)::text as d, array_agg(d.bytes)::text as db, array_agg(m.bytes)::text as mb
    from days d join months m on m.company_id = d.company_id and m.sim_id = d.sim_id
      and m.month = date_trunc('month', d.day)::date
    join plans pl on pl.sim_id = d.sim_id
    where ?::boolean
  ) tot`;

const INSERT_ASIDE = `insert into usage_aside (source, record_id, start, iccid, "end", bytes_up, bytes_down, network,
    country, rat, imei, received_at)
  select ?, r, a, k, b, u, d, n, y, t, i, ?::timestamptz
  from json_to_recordset(?::json) as t(r text, k text, a timestamptz, b timestamptz, u bigint, d bigint, n text,
    y text, t text, i text)
  on conflict do nothing
  returning 1`;

/** The fields both statements take, under the short keys of their json_to_recordset. */
const fields = (r: UsageRecord) => ({
  r: r.recordId,
  a: r.start.toISOString(),
  b: r.end.toISOString(),
  u: r.bytesUp,
  d: r.bytesDown,
  n: r.network,
  y: r.country,
  t: r.rat,
  i: r.imei,
});

/** The partitions the batch may write to (its records' hours share them: a Swedish day starts on an hour). */
function partitionsOf(records: UsageRecord[]): Partition[] {
  const hours = new Set(records.map((r) => Math.floor(r.start.getTime() / 3_600_000)));
  return [...hours].flatMap((h) => [
    ...partitionsForRecord(new Date(h * 3_600_000), false),
    ...partitionsForRecord(new Date(h * 3_600_000), true),
  ]);
}

/**
 * Takes a batch of records from `source` (the network key's name, or the CLI's --source): checks each, and
 * stores the good ones all or nothing. Returns what became of each record; the four counts add up to the batch.
 */
export async function ingestUsage(
  em: Em,
  source: string,
  records: readonly unknown[],
  opts: IngestOptions = {},
): Promise<IngestCounts> {
  if (!validSource(source)) throw new Error(`not a usage source name: ${JSON.stringify(source)}`);
  const now = opts.now ?? new Date();
  const retentionDays = opts.rawDays ?? USAGE_RAW_DAYS;
  const limits = { now, oldest: rawOldest(now, retentionDays), retentionDays };
  const counts: IngestCounts = { taken: 0, duplicates: 0, unknownIccid: 0, refused: [] };
  const good: UsageRecord[] = [];
  const ids = new Set<string>();
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % CHECK_SLICE === 0) await nextTurn();
    const c = checkUsageRecord(records[index], limits);
    if (!c.ok) counts.refused.push({ index, reason: c.reason });
    else if (ids.has(c.record.recordId)) counts.duplicates++;
    else {
      ids.add(c.record.recordId);
      good.push(c.record);
    }
  }
  if (good.length === 0) return counts;
  await ensurePartitions(em, partitionsOf(good));
  const received = now.toISOString();
  const iccids = JSON.stringify([...new Set(good.map((r) => r.iccid))]);
  for (let attempt = 1; ; attempt++) {
    try {
      const stored = await em.transactional(async (tx) => {
        const sims = await tx.execute<Array<{ iccid: string; id: number; company_id: number; plan: number }>>(
          // LATERAL: a probe of the active ICCIDs' unique index per ICCID, whatever the planner guesses of the list.
          `select l.iccid, s.id, s.company_id, s.rate_plan_id as plan from json_array_elements_text(?::json) as l(iccid)
           cross join lateral (select id, company_id, rate_plan_id from sim where iccid = l.iccid and status = 'active'
             limit 1) s`,
          [iccids],
        );
        const simOf = new Map(sims.map((s) => [s.iccid, s]));
        const taken: object[] = [];
        const aside: object[] = [];
        for (const r of good) {
          const sim = simOf.get(r.iccid);
          if (sim) taken.push({ c: sim.company_id, s: sim.id, p: sim.plan, ...fields(r) });
          else aside.push({ k: r.iccid, ...fields(r) });
        }
        // The usage rules of the SIMs' companies (issue 40): when there are any, the statement returns the totals it
        // leaves, and they are evaluated on them in this transaction, so a firing, its webhook and its pause are
        // there exactly when the usage that caused them is.
        const batchCompanies = [...new Set(sims.map((s) => Number(s.company_id)))];
        const rules = taken.length ? await usageRulesOf(tx, batchCompanies) : [];
        const [row] = taken.length
          ? await tx.execute<Array<{ taken: number } & Partial<BatchTotals>>>(INSERT_TAKEN, [
              JSON.stringify(taken),
              source,
              received,
              rules.length > 0,
            ])
          : [{ taken: 0 }];
        const kept = aside.length
          ? (await tx.execute<unknown[]>(INSERT_ASIDE, [source, received, JSON.stringify(aside)])).length
          : 0;
        const companies = row?.taken ? batchCompanies : [];
        const totals = row?.s ? batchTotals(row) : null;
        const fired = totals ? await evaluateUsageRules(tx, rules, totals, now) : [];
        return { taken: row?.taken ?? 0, kept, candidates: good.length, companies, fired };
      });
      counts.taken = stored.taken;
      counts.unknownIccid = stored.kept;
      counts.duplicates += stored.candidates - stored.taken - stored.kept;
      if (stored.companies.length) await opts.onTaken?.(stored.companies);
      if (stored.fired.length) await opts.onFired?.(stored.fired);
      return counts;
    } catch (e) {
      if (!(e instanceof DeadlockException) || attempt >= DEADLOCK_TRIES) throw e;
    }
  }
}
