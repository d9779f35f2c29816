import { Migration } from '@mikro-orm/migrations';

// A SIM's page of history as a function that carries its planner settings (docs/decisions/020): the LATERAL walk
// of sim_event_sim_at_index with bitmap and sequential scans off, so the plan stays the index walk whatever the
// planner guesses of a SIM's events. Before, the read sent the settings and the statement in one simple-protocol
// message, and PostgreSQL parsed and planned the statement at every call (303 us of its CPU against 40 us for the
// same read prepared); a PL/pgSQL function's statements are planned once per connection, under the function's own
// `SET` clauses, and the settings end with the call. p_before: the event after which an older page starts (null:
// the newest page); p_limit: the page's size plus one (whether there are older events). The columns are the
// portal's event rows (server/sims/read.ts): the time as ISO 8601 in UTC, who made it (user or API key).
export class Migration20261201230000_history_function extends Migration {
  override name = 'Migration20261201230000_history_function';

  override up(): void | Promise<void> {
    this.addSql(`create function "sim_history"(p_company int, p_sim int, p_before int, p_limit int)
  returns table ("id" int, "kind" text, "at" text, "by" text, "key_name" text, "before" jsonb, "after" jsonb)
  language plpgsql stable
  set enable_bitmapscan = off
  set enable_seqscan = off
as $$
#variable_conflict use_column
begin
  if p_before is null then
    return query select e.id, e.kind, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        u.name::text, k.name::text, e.before, e.after
      from sim s cross join lateral (
        select * from sim_event e where e.sim_id = s.id order by e.at desc, e.id desc limit p_limit
      ) e
      left join app_user u on u.id = e.by_id left join api_key k on k.id = e.api_key_id
      where s.company_id = p_company and s.id = p_sim and s.status = 'active' order by e.at desc, e.id desc;
  else
    return query select e.id, e.kind, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        u.name::text, k.name::text, e.before, e.after
      from sim s cross join lateral (
        select * from sim_event e where e.sim_id = s.id
          and (e.at, e.id) < (select b.at, b.id from sim_event b where b.id = p_before and b.sim_id + 0 = s.id)
          order by e.at desc, e.id desc limit p_limit
      ) e
      left join app_user u on u.id = e.by_id left join api_key k on k.id = e.api_key_id
      where s.company_id = p_company and s.id = p_sim and s.status = 'active' order by e.at desc, e.id desc;
  end if;
end
$$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "sim_history"(int, int, int, int);`);
  }
}
