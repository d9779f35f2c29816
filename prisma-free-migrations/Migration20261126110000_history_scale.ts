import { Migration } from '@mikro-orm/migrations';

// 10,000,000 SIM events (docs/decisions/020) and 1,000,000 audit events.
// - A SIM's history, newest first and paged by keyset, walks one index: (sim_id, at desc, id desc). It leads with
//   sim_id, so it also serves what the index on sim_id alone did (the foreign key, the invoice specification's
//   join); that one goes.
// - A trail filtered by kind walks an index of that kind: the company's (/company/activity, /admin/audit of a
//   company) and every company's (/admin/audit); without it a rare kind read the whole trail for a page.
export class Migration20261126110000_history_scale extends Migration {
  override name = 'Migration20261126110000_history_scale';

  override up(): void | Promise<void> {
    this.addSql(`create index "sim_event_sim_at_index" on "sim_event" ("sim_id", "at" desc, "id" desc);`);
    this.addSql(`drop index "sim_event_sim_id_index";`);
    this.addSql(`create index "audit_event_company_kind_index" on "audit_event" ("company_id", "kind", "id" desc);`);
    this.addSql(`create index "audit_event_kind_index" on "audit_event" ("kind", "id" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "audit_event_kind_index";`);
    this.addSql(`drop index "audit_event_company_kind_index";`);
    this.addSql(`create index "sim_event_sim_id_index" on "sim_event" ("sim_id");`);
    this.addSql(`drop index "sim_event_sim_at_index";`);
  }
}
