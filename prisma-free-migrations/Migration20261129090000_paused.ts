import { Migration } from '@mikro-orm/migrations';

// The paused state (issue 40, docs/decisions/037): a mark on an active SIM, its status untouched, so every list,
// count, search index and the ICCID's uniqueness stay as they are. paused_event_id is the history event that paused
// it (who: a user, an API key or a rule); the partial index lists a company's paused SIMs in the list's order (a few
// of many: the list's own index would pass every SIM first). A history event may name the rule that made it.
export class Migration20261129090000_paused extends Migration {
  override name = 'Migration20261129090000_paused';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sim" add column "paused_at" timestamptz null, add column "paused_event_id" int null;`);
    this.addSql(
      `create index "sim_paused_index" on "sim" ("company_id", "activated_at" desc, "id" desc) where "status" = 'active' and "paused_at" is not null;`,
    );
    this.addSql(`alter table "sim_event" add column "rule_id" int null;`);
    this.addSql(`alter table "sim_event" drop constraint "sim_event_kind_check";`);
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_kind_check" check ("kind" in ('activated', 'updated', 'planChanged', 'deactivated', 'paused', 'resumed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "sim_event" where "kind" in ('paused', 'resumed');`);
    this.addSql(`alter table "sim_event" drop constraint "sim_event_kind_check";`);
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_kind_check" check ("kind" in ('activated', 'updated', 'planChanged', 'deactivated'));`,
    );
    this.addSql(`alter table "sim_event" drop column "rule_id";`);
    this.addSql(`drop index "sim_paused_index";`);
    this.addSql(`alter table "sim" drop column "paused_at", drop column "paused_event_id";`);
  }
}
