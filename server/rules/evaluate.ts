// A company's usage rules, evaluated in the ingest's own transaction (issue 40, docs/decisions/038): the batch's
// SIMs and days are checked against the rules of their companies right after their totals are added, so a rule
// acts in the batch that crosses its threshold (at most one record late: the network's 15-minute records). One
// statement per company with rules: the day and month totals of the batch's SIMs (as the ingest's upserts returned
// them, only those at or over the company's lowest threshold of a kind), the rules whose SIMs they are
// (all, a tag, a plan) and whose threshold they reach, one firing per rule, SIM and period (the unique key: a batch
// sent again, two instances with the same batch, a SIM over its threshold batch after batch, all fire once), and a
// webhook event per firing of a rule that sends them (the outbox, in the same statement). Then the SIMs of the
// rules that pause are paused, by the rule, in the same transaction.
import type { Em } from '#server/db/orm.ts';
import { outboxCtes, outboxParams } from '#server/webhooks/outbox.ts';
import { pauseSims } from '#server/sims/pause.ts';
import { isoSql } from '#server/sims/rows.ts';
import { tagsJsonSql } from '#server/sims/tags.ts';
import { MB } from '#domain/rules/kinds.ts';

/** What a batch's rules did in one company: per rule, the SIMs it fired for and those it paused. */
export type Fired = {
  companyId: number;
  ruleId: number;
  ruleName: string;
  notifyToast: boolean;
  sims: number[];
  paused: number[];
};

export type RuleRow = { id: number; company_id: number; name: string; notify_toast: boolean; pause: boolean };

/** The usage rules of these companies that are on (silence is the sweep's: ./silence.ts). */
const RULES_SQL = `select id, company_id, name, notify_toast, pause from rule
  where company_id = any(?::int[]) and enabled and condition <> 'silent' order by company_id, id`;

/** A rule's SIMs: every SIM, those on its plan, or those with its tag (a probe of sim_tag's key). */
export const TARGET_SQL = (sim: string, company: string) => `(r.target = 'all'
    or (r.target = 'plan' and r.target_plan_id = ${sim}.rate_plan_id)
    or (r.target = 'tag' and exists (select 1 from sim_tag g
      where g.company_id = ${company} and g.sim_id = ${sim}.id and g.tag = r.target_tag)))`;

/** The SIM and rule of a firing, as the webhook events carry them. */
export const FIRING_SIM_JSON = `jsonb_build_object('id', s.id, 'iccid', s.iccid, 'tags', ${tagsJsonSql('s.company_id', 's.id')})`;

const EVALUATE_SQL = `with r as materialized (
    select * from rule where company_id = ? and enabled and condition <> 'silent'
  ), lo as materialized (
    -- The lowest threshold of each kind: a SIM under all three can reach no rule, and is not joined to them.
    select min(threshold) filter (where condition = 'day_bytes') as day_bytes,
      min(threshold) filter (where condition = 'month_bytes') as month_bytes,
      min(threshold) filter (where condition = 'month_share') as month_share
    from r
  ), v as materialized (
    -- The batch's SIMs with their day and month totals as the ingest's statement left them (its upserts return
    -- them: nothing is read again) and the plan of the ingest's own lookup; which kinds' lowest threshold each
    -- reached (a SIM under all three can reach no rule, and is not joined to them).
    select * from (
      select t.s as id, t.p as rate_plan_id, t.d as day, p.data_limit, t.db as day_bytes, t.mb as month_bytes,
        coalesce(t.db >= lo.day_bytes, false) as day_hit, coalesce(t.mb >= lo.month_bytes, false) as month_hit,
        coalesce(p.data_limit > 0 and t.mb * 100 >= lo.month_share * p.data_limit * ${MB}::bigint, false) as share_hit
      from unnest(?::int[], ?::int[], ?::int[], ?::date[], ?::bigint[], ?::bigint[]) as t(c, s, p, d, db, mb)
      join rate_plan p on p.id = t.p
      cross join lo
      where t.c = ?
    ) x where day_hit or month_hit or share_hit
  ), hits as (
    select distinct on (r.id, v.id, period) r.id as rule_id, v.id as sim_id,
      case when r.condition = 'day_bytes' then to_char(v.day, 'YYYY-MM-DD') else to_char(v.day, 'YYYY-MM') end
        as period,
      case when r.condition = 'day_bytes' then v.day_bytes else v.month_bytes end as value,
      r.notify_webhook
    from v cross join lateral (
      -- The rules of each kind whose threshold the SIM reached: a range of rule_threshold_index per SIM and kind,
      -- never every rule of the company tested against every SIM.
      -- (A kind whose lowest threshold the SIM did not reach is not probed: a one-time filter of the branch.)
      select x.* from rule x where x.company_id = ? and x.enabled and x.condition = 'day_bytes' and v.day_hit
        and x.threshold <= v.day_bytes
      union all
      select x.* from rule x where x.company_id = ? and x.enabled and x.condition = 'month_bytes' and v.month_hit
        and x.threshold <= v.month_bytes
      union all
      -- month_bytes * 100 >= threshold * data_limit MB, for a whole threshold: threshold <= their quotient.
      select x.* from rule x where x.company_id = ? and x.enabled and x.condition = 'month_share' and v.share_hit
        and x.threshold <= v.month_bytes * 100 / nullif(v.data_limit * ${MB}::bigint, 0)
    ) r
    where ${TARGET_SQL('v', '?::int')}
    order by r.id, v.id, period, value desc
  ), fired as (
    insert into rule_firing (company_id, rule_id, sim_id, period, value, fired_at, webhook)
    select ?, rule_id, sim_id, period, value, ?::timestamptz, notify_webhook from hits
    order by rule_id, sim_id, period
    on conflict (rule_id, sim_id, period) do nothing
    returning id, rule_id, sim_id, period, value, fired_at
  )${outboxCtes(
    'thr',
    'usage.threshold_reached',
    `select jsonb_build_object('rule', jsonb_build_object('id', r.id, 'name', r.name), 'sim', ${FIRING_SIM_JSON},
       'condition', r.condition, 'threshold', r.threshold, 'period', f.period, 'value', f.value,
       'dataLimitMb', p.data_limit, 'firedAt', ${isoSql('f.fired_at')}) as data
     from fired f join r on r.id = f.rule_id join sim s on s.id = f.sim_id join rate_plan p on p.id = s.rate_plan_id
     where r.notify_webhook order by f.id`,
  )}
  select f.id, f.rule_id, f.sim_id from fired f order by f.rule_id, f.sim_id`;

/**
 * The planner's ways the evaluation never needs, off for its statement and on again after it, in the ingest's
 * transaction: what it reads besides the batch (its SIMs' tags, rows and plans for the events) is looked up by key,
 * whatever the statistics say. Before the totals came from the ingest's statement, they were read here, and a new
 * month's partitions start empty and a first big batch fills them faster than autovacuum analyzes them; planned from "empty", the day and
 * month totals were read whole and joined to every SIM of the batch (a 10,000-SIM batch of a rule that fired for
 * all took over a minute at 60,000 rows), or through the index by (company, day, sim) with the day left out of its
 * condition, every row of the company read for each SIM (3.5 s more each batch: bench:rules).
 */
const WAYS = ['seqscan', 'hashjoin', 'mergejoin', 'material'];
const planned = (on: boolean) =>
  `select ${WAYS.map((w) => `set_config('enable_${w}', '${on ? 'on' : 'off'}', true)`).join(', ')}`;
const BY_KEY = planned(false);
const AFTER = planned(true);

/** A batch's day and month totals per SIM and day, as the ingest's statement returns them: PostgreSQL arrays in
 * their text form, one element per SIM and day (company, SIM, plan, Swedish day, the day's bytes, the month's). */
export type BatchTotals = { c: string; s: string; p: string; d: string; db: string; mb: string };

/** The totals of a row of the ingest's statement. */
export const batchTotals = (row: Partial<BatchTotals>): BatchTotals => ({
  c: row.c ?? '{}',
  s: row.s ?? '{}',
  p: row.p ?? '{}',
  d: row.d ?? '{}',
  db: row.db ?? '{}',
  mb: row.mb ?? '{}',
});

/** The usage rules on of these companies (one indexed read; none: the ingest asks for no totals). */
export async function usageRulesOf(tx: Em, companies: readonly number[]): Promise<RuleRow[]> {
  if (companies.length === 0) return [];
  return tx.execute<RuleRow[]>(RULES_SQL, [`{${companies.map((c) => Math.trunc(c)).join(',')}}`]);
}

/**
 * The usage `rules` (usageRulesOf) evaluated in the ingest's transaction `tx` on the totals its statement just
 * wrote (`totals`, one per SIM and day the batch added to): what fired.
 */
export async function evaluateUsageRules(
  tx: Em,
  rules: readonly RuleRow[],
  totals: BatchTotals,
  now: Date,
): Promise<Fired[]> {
  const fired: Fired[] = [];
  for (const companyId of new Set(rules.map((r) => Number(r.company_id)))) {
    await tx.execute(BY_KEY);
    const rows = await tx.execute<Array<{ id: number | string; rule_id: number; sim_id: number }>>(EVALUATE_SQL, [
      companyId,
      totals.c,
      totals.s,
      totals.p,
      totals.d,
      totals.db,
      totals.mb,
      companyId,
      companyId,
      companyId,
      companyId,
      companyId,
      companyId,
      now.toISOString(),
      ...outboxParams(companyId),
    ]);
    await tx.execute(AFTER);
    fired.push(...(await actOn(tx, companyId, rules, rows)));
  }
  return fired;
}

/**
 * What the firings of one company do besides their webhook: the SIMs of each rule that pauses are paused by the
 * rule (a SIM already paused stays as it is), and each firing says whether it paused its SIM.
 */
export async function actOn(
  tx: Em,
  companyId: number,
  rules: readonly RuleRow[],
  rows: ReadonlyArray<{ id: number | string; rule_id: number; sim_id: number }>,
): Promise<Fired[]> {
  const out: Fired[] = [];
  for (const rule of rules.filter((r) => Number(r.company_id) === companyId)) {
    const mine = rows.filter((r) => Number(r.rule_id) === Number(rule.id));
    if (mine.length === 0) continue;
    const sims = mine.map((r) => Number(r.sim_id));
    let paused: number[] = [];
    if (rule.pause) {
      const actor = { companyId, userId: null, rule: { id: Number(rule.id), name: rule.name } };
      const result = await pauseSims(tx, actor, sims);
      paused = result.results.filter((r) => r.outcome === 'paused').map((r) => r.id);
      const didPause = new Set(paused);
      const firings = mine.filter((r) => didPause.has(Number(r.sim_id))).map((r) => String(r.id));
      if (firings.length)
        await tx.execute(`update rule_firing set paused = true where rule_id = ? and id = any(?::bigint[])`, [
          Number(rule.id),
          `{${firings.join(',')}}`,
        ]);
    }
    out.push({
      companyId,
      ruleId: Number(rule.id),
      ruleName: rule.name,
      notifyToast: rule.notify_toast,
      sims,
      paused,
    });
  }
  return out;
}
