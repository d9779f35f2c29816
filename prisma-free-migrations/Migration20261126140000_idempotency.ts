import { Migration } from '@mikro-orm/migrations';

// The stored first answers of REST requests sent with an Idempotency-Key (server/db/entities/idempotency.ts),
// one per caller and key; the purge deletes them after 24 hours by created_at.

export class Migration20261126140000_idempotency extends Migration {
  override name = 'Migration20261126140000_idempotency';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_key" ("scope" varchar(100) not null, "key_hash" varchar(64) not null, "request_hash" varchar(64) not null, "status" smallint not null, "body" text not null, "link" varchar(2000) null, "created_at" timestamptz not null, primary key ("scope", "key_hash"));`,
    );
    this.addSql(`create index "idempotency_key_created_at_index" on "idempotency_key" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_key" cascade;`);
  }
}
