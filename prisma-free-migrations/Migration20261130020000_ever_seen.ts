import { Migration } from '@mikro-orm/migrations';

// "Aldrig sedd" (/sims' filter `never`, issue 39) at a million SIMs: the filter read the list's index and tested each
// SIM for a last sighting, so on a fleet that has been seen it walked every SIM to find none (522 ms on 1,000,000
// SIMs alone, 5 s and a saturated pool with 20 people and the ingest beside them). A mark on the SIM instead:
// `ever_seen`, set by a statement trigger on usage_last_seen when a SIM's first sighting is inserted (whoever
// writes it: the ingest, the demo, a test), and a partial index of the never-seen SIMs in the list's order, so the
// filter walks only them. Existing sightings mark their SIMs here. Adding the column with a constant default rewrites
// nothing; the update touches the SIMs seen.
export class Migration20261130020000_ever_seen extends Migration {
  override name = 'Migration20261130020000_ever_seen';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sim" add column "ever_seen" boolean not null default false;`);
    this.addSql(
      `update "sim" s set "ever_seen" = true from "usage_last_seen" l where l."company_id" = s."company_id" and l."sim_id" = s."id";`,
    );
    this.addSql(
      `create index "sim_never_seen_index" on "sim" ("company_id", "activated_at" desc, "id" desc) where "status" = 'active' and not "ever_seen";`,
    );
    this.addSql(`create function "usage_last_seen_first"() returns trigger language plpgsql as $$
      begin
        update "sim" s set "ever_seen" = true
        from (select distinct "company_id", "sim_id" from new_rows) n
        where s."company_id" = n."company_id" and s."id" = n."sim_id" and not s."ever_seen";
        return null;
      end $$;`);
    this.addSql(
      `create trigger "usage_last_seen_on_insert" after insert on "usage_last_seen" referencing new table as new_rows for each statement execute function "usage_last_seen_first"();`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "usage_last_seen_on_insert" on "usage_last_seen";`);
    this.addSql(`drop function "usage_last_seen_first"();`);
    this.addSql(`drop index "sim_never_seen_index";`);
    this.addSql(`alter table "sim" drop column "ever_seen";`);
  }
}
