import { Migration } from '@mikro-orm/migrations';

// A company's API keys (only the key's SHA-256 and a short prefix are stored), and the key that made
// a SIM change in its history.
export class Migration20261123083000_api_keys extends Migration {
  override name = 'Migration20261123083000_api_keys';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "api_key" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "scope" text not null, "prefix" varchar(20) not null, "hash" varchar(64) not null, "created_by_id" int null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "expires_at" timestamptz null, "revoked_at" timestamptz null);`,
    );
    this.addSql(`create index "api_key_company_id_index" on "api_key" ("company_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_hash_unique" unique ("hash");`);
    this.addSql(`alter table "api_key" add constraint "api_key_scope_check" check ("scope" in ('read', 'write'));`);
    this.addSql(
      `alter table "api_key" add constraint "api_key_company_id_foreign" foreign key ("company_id") references "company" ("id");`,
    );
    this.addSql(
      `alter table "api_key" add constraint "api_key_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(`alter table "sim_event" add "api_key_id" int null;`);
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_api_key_id_foreign" foreign key ("api_key_id") references "api_key" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "sim_event" drop constraint "sim_event_api_key_id_foreign";`);
    this.addSql(`alter table "sim_event" drop column "api_key_id";`);
    this.addSql(`drop table if exists "api_key" cascade;`);
  }
}
