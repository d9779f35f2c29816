import { Migration } from '@mikro-orm/migrations';

export class Migration20261122135829_sim_list_index extends Migration {
  override name = 'Migration20261122135829_sim_list_index';

  override up(): void | Promise<void> {
    this.addSql(`drop index "sim_company_id_status_index";`);
    this.addSql(
      `create index "sim_company_status_activated_index" on "sim" ("company_id", "status", "activated_at" desc, "id" desc);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "sim_company_status_activated_index";`);
    this.addSql(`create index "sim_company_id_status_index" on "sim" ("company_id", "status");`);
  }
}
