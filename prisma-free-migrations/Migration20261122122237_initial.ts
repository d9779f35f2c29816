import { Migration } from '@mikro-orm/migrations';

export class Migration20261122122237_initial extends Migration {
  override name = 'Migration20261122122237_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "company" ("id" serial primary key, "name" varchar(200) not null, "customer_number" varchar(50) not null, "invoice_note" varchar(200) not null default '', "invoice_interval" text not null default 'monthly', "created_at" timestamptz not null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`alter table "company" add constraint "company_customer_number_unique" unique ("customer_number");`);
    this.addSql(
      `alter table "company" add constraint "company_invoice_interval_check" check ("invoice_interval" in ('monthly', 'quarterly', 'biannually', 'annually'));`,
    );

    this.addSql(
      `create table "login_token" ("id" serial primary key, "token_hash" varchar(64) not null, "email" varchar(254) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null);`,
    );
    this.addSql(`alter table "login_token" add constraint "login_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `create table "rate_plan" ("id" serial primary key, "code" varchar(50) not null, "description" varchar(200) not null, "data_limit" int not null, "call" boolean not null default false, "sms" boolean not null default false, "roaming" boolean not null default false, "is_legacy" boolean not null default false);`,
    );
    this.addSql(`alter table "rate_plan" add constraint "rate_plan_code_unique" unique ("code");`);

    this.addSql(
      `create table "app_user" ("id" serial primary key, "name" varchar(200) not null, "email" varchar(254) not null, "company_id" int not null, "is_company_owner" boolean not null default false, "is_super_admin" boolean not null default false, "created_at" timestamptz not null, "last_login_at" timestamptz null);`,
    );
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);
    this.addSql(`create index "app_user_company_id_index" on "app_user" ("company_id");`);

    this.addSql(
      `create table "sim" ("id" serial primary key, "iccid" varchar(20) not null, "company_id" int not null, "rate_plan_id" int not null, "invoice_line_mark" varchar(200) not null default '', "invoice_line_note" varchar(200) not null default '', "status" text not null default 'active', "activated_at" timestamptz not null, "deactivated_at" timestamptz null, "activated_by_id" int null);`,
    );
    this.addSql(`create index "sim_company_id_status_index" on "sim" ("company_id", "status");`);
    this.addSql(`create unique index "sim_iccid_active_unique" on "sim" ("iccid") where "status" = 'active';`);
    this.addSql(`alter table "sim" add constraint "sim_status_check" check ("status" in ('active', 'deactivated'));`);

    this.addSql(
      `create table "sim_event" ("id" serial primary key, "sim_id" int not null, "kind" text not null, "rate_plan_id" int not null, "by_id" int null, "at" timestamptz not null, "before" jsonb null, "after" jsonb null);`,
    );
    this.addSql(`create index "sim_event_sim_id_index" on "sim_event" ("sim_id");`);
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_kind_check" check ("kind" in ('activated', 'updated', 'planChanged', 'deactivated'));`,
    );

    this.addSql(
      `create table "app_session" ("id" varchar(64) not null, "user_id" int not null, "acting_company_id" int null, "data" jsonb null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "app_session_user_id_index" on "app_session" ("user_id");`);
    this.addSql(`create index "app_session_expires_at_index" on "app_session" ("expires_at");`);

    this.addSql(
      `create table "feedback" ("id" serial primary key, "message" text not null, "user_id" int null, "company_id" int null, "created_at" timestamptz not null);`,
    );

    this.addSql(
      `create table "audit_event" ("id" serial primary key, "who_id" int null, "acting_company_id" int null, "action" varchar(100) not null, "target_type" varchar(50) not null, "target_id" varchar(50) null, "before" jsonb null, "after" jsonb null, "at" timestamptz not null);`,
    );
    this.addSql(`create index "audit_event_at_index" on "audit_event" ("at");`);

    this.addSql(
      `alter table "app_user" add constraint "app_user_company_id_foreign" foreign key ("company_id") references "company" ("id");`,
    );

    this.addSql(
      `alter table "sim" add constraint "sim_company_id_foreign" foreign key ("company_id") references "company" ("id");`,
    );
    this.addSql(
      `alter table "sim" add constraint "sim_rate_plan_id_foreign" foreign key ("rate_plan_id") references "rate_plan" ("id");`,
    );
    this.addSql(
      `alter table "sim" add constraint "sim_activated_by_id_foreign" foreign key ("activated_by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "sim_event" add constraint "sim_event_sim_id_foreign" foreign key ("sim_id") references "sim" ("id");`,
    );
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_rate_plan_id_foreign" foreign key ("rate_plan_id") references "rate_plan" ("id");`,
    );
    this.addSql(
      `alter table "sim_event" add constraint "sim_event_by_id_foreign" foreign key ("by_id") references "app_user" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "app_session" add constraint "app_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "app_session" add constraint "app_session_acting_company_id_foreign" foreign key ("acting_company_id") references "company" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "feedback" add constraint "feedback_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "feedback" add constraint "feedback_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "audit_event" add constraint "audit_event_who_id_foreign" foreign key ("who_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_acting_company_id_foreign" foreign key ("acting_company_id") references "company" ("id") on delete set null;`,
    );
  }
}
