import { Migration } from '@mikro-orm/migrations';

// The network's integration keys (server/db/entities/network.ts, decision 034): the portal's own keys for the
// operator's usage feed, not a company's.

export class Migration20261128160000_network_keys extends Migration {
  override name = 'Migration20261128160000_network_keys';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "network_key" ("id" serial primary key, "name" varchar(100) not null, "prefix" varchar(20) not null, "hash" varchar(64) not null, "created_by_id" int null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null);`,
    );
    this.addSql(`alter table "network_key" add constraint "network_key_hash_unique" unique ("hash");`);
    this.addSql(
      `alter table "network_key" add constraint "network_key_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "network_key" cascade;`);
  }
}
