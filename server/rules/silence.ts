// The silence rules (issue 40): "no traffic for N hours" fires for a SIM once its last record ended N hours ago,
// within a sweep's interval of the deadline (a minute; the rules' page says 5 minutes at most). A sweep reads only the
// SIMs whose deadline passed since the rule's last sweep (a range of usage_last_seen's (company, at) index), not every
// silent SIM again: its watermark is rule_watch.silence_checked_until, locked per rule (SKIP LOCKED), so two
// instances sweeping at once share the rules and a rule is swept by one. A firing is once per silence: its period
// is the time of the last traffic, so new traffic and a new silence fire again. A SIM never seen is not silent, and
// a paused SIM (which carries no data) is left out.
import type { Em } from '#server/db/orm.ts';
import { outboxCtes, outboxParams } from '#server/webhooks/outbox.ts';
import { isoSql } from '#server/sims/rows.ts';
import { actOn, FIRING_SIM_JSON, TARGET_SQL, type Fired } from './evaluate.ts';

type SilentRule = { id: number; company_id: number; name: string; notify_toast: boolean; pause: boolean };

const SWEEP_SQL = `with r as materialized (
    select * from rule where id = ? and enabled and condition = 'silent'
  ), hits as (
    select s.id as sim_id, ls.at from r
    join usage_last_seen ls on ls.company_id = r.company_id
      and ls.at <= ?::timestamptz - r.threshold * interval '1 minute'
      and (?::timestamptz is null or ls.at > ?::timestamptz - r.threshold * interval '1 minute')
    join sim s on s.id = ls.sim_id and s.company_id = r.company_id and s.status = 'active' and s.paused_at is null
    where ${TARGET_SQL('s', 'r.company_id')}
  ), fired as (
    insert into rule_firing (company_id, rule_id, sim_id, period, value, fired_at, webhook)
    select r.company_id, r.id, h.sim_id, 'silent:' || ${isoSql('h.at')},
      floor(extract(epoch from (?::timestamptz - h.at)) / 60)::bigint, ?::timestamptz, r.notify_webhook
    from hits h cross join r order by h.sim_id
    on conflict (rule_id, sim_id, period) do nothing
    returning id, rule_id, sim_id, period, fired_at
  )${outboxCtes(
    'sil',
    'sim.silent',
    `select jsonb_build_object('rule', jsonb_build_object('id', r.id, 'name', r.name), 'sim', ${FIRING_SIM_JSON},
       'lastSeenAt', substr(f.period, 8), 'silentMinutes', r.threshold, 'firedAt', ${isoSql('f.fired_at')}) as data
     from fired f join r on r.id = f.rule_id join sim s on s.id = f.sim_id where r.notify_webhook order by f.id`,
  )}
  select f.id, f.rule_id, f.sim_id from fired f order by f.sim_id`;

/**
 * One sweep of every silence rule that is on, at `now` (tests pass a virtual clock): each rule in its own
 * transaction, skipped when another instance is sweeping it. What fired, for the toasts.
 */
export async function sweepSilence(em: Em, now: Date): Promise<Fired[]> {
  const rules = await em.execute<SilentRule[]>(
    `select id, company_id, name, notify_toast, pause from rule where enabled and condition = 'silent' order by id`,
  );
  const fired: Fired[] = [];
  for (const rule of rules) {
    const done = await em.transactional(async (tx) => {
      await tx.execute(`insert into rule_watch (rule_id) values (?) on conflict do nothing`, [rule.id]);
      const [watch] = await tx.execute<Array<{ until: Date | string | null }>>(
        `select silence_checked_until as until from rule_watch where rule_id = ? for update skip locked`,
        [rule.id],
      );
      if (!watch) return null; // another instance is sweeping it
      const from = watch.until === null ? null : new Date(watch.until).toISOString();
      const at = now.toISOString();
      const companyId = Number(rule.company_id);
      const rows = await tx.execute<Array<{ id: number | string; rule_id: number; sim_id: number }>>(SWEEP_SQL, [
        rule.id,
        at,
        from,
        from,
        at,
        at,
        ...outboxParams(companyId),
      ]);
      // Never backwards: a sweep with an older clock (two instances' clocks) leaves the later watermark.
      await tx.execute(
        `update rule_watch set silence_checked_until = greatest(coalesce(silence_checked_until, ?::timestamptz), ?::timestamptz)
         where rule_id = ?`,
        [at, at, rule.id],
      );
      return actOn(tx, companyId, [rule], rows);
    });
    if (done) fired.push(...done);
  }
  return fired;
}
