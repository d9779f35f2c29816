import { Migration } from '@mikro-orm/migrations';

// A company of 1,000,000 SIMs (docs/decisions/019).
// - Search: trigram GIN indexes (pg_trgm, on PGlite too) on the ICCID, the mark and the comment of active SIMs,
//   so a search reads only the rows that can match.
// - The list's index covers what the search filters on (ICCID, marks, plan), so walking it for a search that
//   matches many SIMs, or counting them up to the cap, never visits the table.
// - A plan's SIMs are found by an index too (a search by plan description).
// - sim_daily_count: a company's active SIMs per UTC day of activation, kept by statement triggers in the same
//   transaction as every change of sim: the list's exact total without counting, and a deep page found by
//   summing days instead of walking an offset.
export class Migration20261125200000_fleet_scale extends Migration {
  override name = 'Migration20261125200000_fleet_scale';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create index "sim_iccid_trgm_index" on "sim" using gin ("iccid" gin_trgm_ops) where "status" = 'active';`,
    );
    this.addSql(
      `create index "sim_mark_trgm_index" on "sim" using gin ("invoice_line_mark" gin_trgm_ops) where "status" = 'active';`,
    );
    this.addSql(
      `create index "sim_note_trgm_index" on "sim" using gin ("invoice_line_note" gin_trgm_ops) where "status" = 'active';`,
    );
    this.addSql(
      `create index "sim_list_index" on "sim" ("company_id", "status", "activated_at" desc, "id" desc) include ("iccid", "invoice_line_mark", "invoice_line_note", "rate_plan_id");`,
    );
    this.addSql(`drop index "sim_company_status_activated_index";`);
    this.addSql(
      `create index "sim_company_plan_index" on "sim" ("company_id", "rate_plan_id") where "status" = 'active';`,
    );
    this.addSql(
      `create table "sim_daily_count" ("company_id" int not null, "day" date not null, "n" int not null default 0, primary key ("company_id", "day"));`,
    );
    // One upsert per statement, its rows in key order (two transactions never wait on each other in a circle);
    // an update that moves no SIM in or out of a day (an edited mark) writes nothing.
    this.addSql(`create function "sim_daily_count_apply"() returns trigger language plpgsql as $$
begin
  insert into sim_daily_count (company_id, day, n)
  select company_id, day, sum(d)::int from (
    select company_id, (activated_at at time zone 'UTC')::date as day, -1 as d
      from old_rows where status = 'active'
    union all
    select company_id, (activated_at at time zone 'UTC')::date, 1
      from new_rows where status = 'active'
  ) x group by company_id, day having sum(d) <> 0 order by company_id, day
  on conflict (company_id, day) do update set n = sim_daily_count.n + excluded.n;
  return null;
end $$;`);
    this.addSql(`create function "sim_daily_count_insert"() returns trigger language plpgsql as $$
begin
  insert into sim_daily_count (company_id, day, n)
  select company_id, (activated_at at time zone 'UTC')::date as day, count(*)::int
    from new_rows where status = 'active' group by 1, 2 order by 1, 2
  on conflict (company_id, day) do update set n = sim_daily_count.n + excluded.n;
  return null;
end $$;`);
    this.addSql(`create function "sim_daily_count_delete"() returns trigger language plpgsql as $$
begin
  insert into sim_daily_count (company_id, day, n)
  select company_id, (activated_at at time zone 'UTC')::date as day, -count(*)::int
    from old_rows where status = 'active' group by 1, 2 order by 1, 2
  on conflict (company_id, day) do update set n = sim_daily_count.n + excluded.n;
  return null;
end $$;`);
    this.addSql(
      `create trigger "sim_daily_count_on_insert" after insert on "sim" referencing new table as new_rows for each statement execute function "sim_daily_count_insert"();`,
    );
    this.addSql(
      `create trigger "sim_daily_count_on_update" after update on "sim" referencing old table as old_rows new table as new_rows for each statement execute function "sim_daily_count_apply"();`,
    );
    this.addSql(
      `create trigger "sim_daily_count_on_delete" after delete on "sim" referencing old table as old_rows for each statement execute function "sim_daily_count_delete"();`,
    );
    this.addSql(
      `insert into "sim_daily_count" ("company_id", "day", "n")
       select "company_id", ("activated_at" at time zone 'UTC')::date, count(*)::int from "sim" where "status" = 'active' group by 1, 2;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "sim_daily_count_on_delete" on "sim";`);
    this.addSql(`drop trigger "sim_daily_count_on_update" on "sim";`);
    this.addSql(`drop trigger "sim_daily_count_on_insert" on "sim";`);
    this.addSql(`drop function "sim_daily_count_delete"();`);
    this.addSql(`drop function "sim_daily_count_insert"();`);
    this.addSql(`drop function "sim_daily_count_apply"();`);
    this.addSql(`drop table "sim_daily_count";`);
    this.addSql(`drop index "sim_company_plan_index";`);
    this.addSql(
      `create index "sim_company_status_activated_index" on "sim" ("company_id", "status", "activated_at" desc, "id" desc);`,
    );
    this.addSql(`drop index "sim_list_index";`);
    this.addSql(`drop index "sim_note_trgm_index";`);
    this.addSql(`drop index "sim_mark_trgm_index";`);
    this.addSql(`drop index "sim_iccid_trgm_index";`);
  }
}
