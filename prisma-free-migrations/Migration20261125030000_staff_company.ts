import { Migration } from '@mikro-orm/migrations';

// Super admins (docs/decisions/014) belong to the portal's own staff company, never to a customer's,
// so no customer's owner can list, edit, demote or remove them. Existing super admins move there (their role
// stays; it means nothing in the staff company). A user row may also hold an address an owner asked for that
// belongs to someone outside the company (requested_email).
export class Migration20261125030000_staff_company extends Migration {
  override name = 'Migration20261125030000_staff_company';

  override up(): void | Promise<void> {
    this.addSql(`alter table "company" add "is_staff" boolean not null default false;`);
    this.addSql(`create unique index "company_is_staff_unique" on "company" ("is_staff") where "is_staff" = true;`);
    this.addSql(`alter table "app_user" add "requested_email" varchar(254) null;`);
    this.addSql(
      `insert into "company" ("name", "customer_number", "invoice_note", "invoice_interval", "is_staff", "created_at", "updated_at")
       select 'Personal (superadministratörer)',
         case when exists (select 1 from "company" where "customer_number" = 'PERSONAL')
           then 'PERSONAL-' || (select coalesce(max("id"), 0) + 1 from "company")::text else 'PERSONAL' end,
         '', 'monthly', true, now(), now()
       where exists (select 1 from "app_user" where "is_super_admin" and "removed_at" is null);`,
    );
    this.addSql(
      `update "app_user" set "company_id" = (select "id" from "company" where "is_staff")
       where "is_super_admin" and "company_id" <> (select "id" from "company" where "is_staff");`,
    );
  }

  override down(): void | Promise<void> {
    // The super admins stay in the staff company, which becomes a company like any other.
    this.addSql(`alter table "app_user" drop column "requested_email";`);
    this.addSql(`drop index "company_is_staff_unique";`);
    this.addSql(`alter table "company" drop column "is_staff";`);
  }
}
