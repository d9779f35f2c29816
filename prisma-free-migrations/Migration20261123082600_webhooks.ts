import { Migration } from '@mikro-orm/migrations';

// Webhooks. A company's endpoints, the outbox of events and one delivery row per event and endpoint
// (claimed by the delivery worker of any instance with FOR UPDATE SKIP LOCKED).

export class Migration20261123082600_webhooks extends Migration {
  override name = 'Migration20261123082600_webhooks';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "webhook_endpoint" ("id" serial primary key, "company_id" int not null, "url" varchar(2000) not null, "events" text[] not null, "secret" varchar(100) not null, "enabled" boolean not null default true, "created_by_id" int null, "created_at" timestamptz not null, "failing_since" timestamptz null);`,
    );
    this.addSql(`create index "webhook_endpoint_company_id_index" on "webhook_endpoint" ("company_id");`);

    this.addSql(
      `create table "webhook_event" ("id" uuid not null, "company_id" int not null, "type" varchar(50) not null, "created_at" timestamptz not null default now(), "data" jsonb not null, primary key ("id"));`,
    );
    this.addSql(`create index "webhook_event_company_id_index" on "webhook_event" ("company_id");`);

    this.addSql(
      `create table "webhook_delivery" ("id" serial primary key, "event_id" uuid not null, "endpoint_id" int not null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null default now(), "last_attempt_at" timestamptz null, "last_status_code" int null, "last_error" varchar(200) null, "delivered_at" timestamptz null);`,
    );
    this.addSql(`create index "webhook_delivery_event_id_index" on "webhook_delivery" ("event_id");`);
    this.addSql(
      `create index "webhook_delivery_due_index" on "webhook_delivery" ("next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(`create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "id" desc);`);
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_event_endpoint_unique" unique ("event_id", "endpoint_id");`,
    );

    this.addSql(
      `alter table "webhook_endpoint" add constraint "webhook_endpoint_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_endpoint" add constraint "webhook_endpoint_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "webhook_event" add constraint "webhook_event_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_event_id_foreign" foreign key ("event_id") references "webhook_event" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoint" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_status_check" check ("status" in ('pending', 'delivered', 'failed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_endpoint_id_foreign";`);
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_event_id_foreign";`);

    this.addSql(`drop table if exists "webhook_endpoint" cascade;`);
    this.addSql(`drop table if exists "webhook_event" cascade;`);
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);
  }
}
