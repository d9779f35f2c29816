import { Migration } from '@mikro-orm/migrations';

// A role per user (owner, member, viewer) in place of is_company_owner (owners become owner, the
// rest member), removed users, and the audit trail per company with a kind (the old rows get theirs).
export class Migration20261123074507_roles extends Migration {
  override name = 'Migration20261123074507_roles';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "role" text not null default 'member', add "removed_at" timestamptz null;`);
    this.addSql(`update "app_user" set "role" = 'owner' where "is_company_owner";`);
    this.addSql(`alter table "app_user" drop column "is_company_owner";`);
    this.addSql(
      `alter table "app_user" add constraint "app_user_role_check" check ("role" in ('owner', 'member', 'viewer'));`,
    );

    this.addSql(`alter table "audit_event" add "company_id" int null, add "kind" text null;`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete set null;`,
    );
    // The rows written before: a user's change belongs to the user's company, a company's to the company.
    this.addSql(
      `update "audit_event" e set "kind" = 'user', "company_id" = u."company_id" from "app_user" u
       where e."target_type" = 'User' and e."target_id" ~ '^[0-9]{1,9}$' and u."id" = e."target_id"::int;`,
    );
    this.addSql(
      `update "audit_event" set "company_id" = "target_id"::int,
       "kind" = case when "action" in ('loginAsCompany', 'stopActingAsCompany') then 'support' else 'company' end
       where "target_type" = 'Company' and "target_id" ~ '^[0-9]{1,9}$'
       and exists (select 1 from "company" c where c."id" = "target_id"::int);`,
    );
    this.addSql(`create index "audit_event_company_id_index" on "audit_event" ("company_id", "id" desc);`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_kind_check" check ("kind" in ('simActivated', 'simUpdated', 'simDeactivated', 'bulk', 'user', 'apiKey', 'webhook', 'support', 'company'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "audit_event" drop constraint "audit_event_company_id_foreign";`);
    this.addSql(`drop index "audit_event_company_id_index";`);
    this.addSql(`alter table "audit_event" drop constraint "audit_event_kind_check";`);
    this.addSql(`alter table "audit_event" drop column "company_id", drop column "kind";`);

    this.addSql(`alter table "app_user" add "is_company_owner" bool not null default false;`);
    this.addSql(`update "app_user" set "is_company_owner" = true where "role" = 'owner';`);
    this.addSql(`alter table "app_user" drop constraint "app_user_role_check";`);
    this.addSql(`alter table "app_user" drop column "role", drop column "removed_at";`);
  }
}
