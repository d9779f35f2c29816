import { Migration } from '@mikro-orm/migrations';

// Rules (issue 40, docs/decisions/038): a company's rules (which SIMs, when, what), the users a rule's e-mail digest
// goes to, and what the rules did (one firing per rule, SIM and period; written by the evaluation). The target's tag
// or plan is there iff the target asks for it, and a rule does at least one thing (checks). The audit trail gets
// the kind 'rule' (its changes on /company/activity).
export class Migration20261129100000_rules extends Migration {
  override name = 'Migration20261129100000_rules';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "rule" ("id" serial primary key, "company_id" int not null, "name" varchar(80) not null, "enabled" boolean not null default true, "target" text not null, "target_tag" varchar(40) collate "C" null, "target_plan_id" int null, "condition" text not null, "threshold" bigint not null, "notify_email" boolean not null default false, "notify_webhook" boolean not null default false, "notify_toast" boolean not null default false, "pause" boolean not null default false, "created_by_id" int null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "rule_company_id_id_index" on "rule" ("company_id", "id");`);
    this.addSql(`alter table "rule" add constraint "rule_company_id_name_unique" unique ("company_id", "name");`);
    this.addSql(
      `create table "rule_recipient" ("rule_id" int not null, "user_id" int not null, primary key ("rule_id", "user_id"));`,
    );
    this.addSql(
      `create table "rule_firing" ("id" bigserial primary key, "company_id" int not null, "rule_id" int not null, "sim_id" int not null, "period" text not null, "value" bigint not null, "fired_at" timestamptz not null default now(), "paused" boolean not null default false, "webhook" boolean not null default false, "emailed_at" timestamptz null);`,
    );
    this.addSql(
      `create index "rule_firing_company_index" on "rule_firing" ("company_id", "fired_at" desc, "id" desc);`,
    );
    this.addSql(`create index "rule_firing_rule_index" on "rule_firing" ("rule_id", "fired_at" desc, "id" desc);`);
    this.addSql(
      `create index "rule_firing_unmailed_index" on "rule_firing" ("rule_id", "fired_at") where "emailed_at" is null;`,
    );
    this.addSql(
      `alter table "rule_firing" add constraint "rule_firing_rule_id_sim_id_period_unique" unique ("rule_id", "sim_id", "period");`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_target_plan_id_foreign" foreign key ("target_plan_id") references "rate_plan" ("id") on delete no action;`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_target_tag_check" check (("target" = 'tag') = ("target_tag" is not null));`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_target_plan_check" check (("target" = 'plan') = ("target_plan_id" is not null));`,
    );
    this.addSql(
      `alter table "rule" add constraint "rule_action_check" check ("notify_email" or "notify_webhook" or "notify_toast" or "pause");`,
    );
    this.addSql(`alter table "rule" add constraint "rule_threshold_check" check ("threshold" > 0);`);
    this.addSql(`alter table "rule" add constraint "rule_target_check" check ("target" in ('all', 'tag', 'plan'));`);
    this.addSql(
      `alter table "rule" add constraint "rule_condition_check" check ("condition" in ('month_share', 'month_bytes', 'day_bytes', 'silent'));`,
    );
    this.addSql(
      `alter table "rule_recipient" add constraint "rule_recipient_rule_id_foreign" foreign key ("rule_id") references "rule" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "rule_recipient" add constraint "rule_recipient_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "rule_firing" add constraint "rule_firing_rule_id_foreign" foreign key ("rule_id") references "rule" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "rule_firing" add constraint "rule_firing_sim_id_foreign" foreign key ("sim_id") references "sim" ("id");`,
    );

    this.addSql(`alter table "audit_event" drop constraint "audit_event_kind_check";`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_kind_check" check ("kind" in ('simActivated', 'simUpdated', 'simDeactivated', 'bulk', 'user', 'apiKey', 'webhook', 'support', 'company', 'security', 'rule'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "audit_event" where "kind" = 'rule';`);
    this.addSql(`alter table "audit_event" drop constraint "audit_event_kind_check";`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_kind_check" check ("kind" in ('simActivated', 'simUpdated', 'simDeactivated', 'bulk', 'user', 'apiKey', 'webhook', 'support', 'company', 'security'));`,
    );
    this.addSql(`drop table if exists "rule_firing";`);
    this.addSql(`drop table if exists "rule_recipient";`);
    this.addSql(`drop table if exists "rule";`);
  }
}
