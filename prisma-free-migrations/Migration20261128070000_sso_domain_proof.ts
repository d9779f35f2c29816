import { Migration } from '@mikro-orm/migrations';

// A single sign-on domain is used only once its company has proved it owns it (a DNS TXT record with the row's
// token): several companies may claim a domain, one may have it verified. The company leads the key. Domains
// saved before this were never proved: they stay unverified until their company adds the record.

export class Migration20261128070000_sso_domain_proof extends Migration {
  override name = 'Migration20261128070000_sso_domain_proof';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sso_domain" drop constraint "sso_domain_pkey";`);
    this.addSql(`drop index if exists "sso_domain_company_id_index";`);
    this.addSql(
      `alter table "sso_domain" add column "verification_token" varchar(64) null, add column "verified_at" timestamptz null;`,
    );
    this.addSql(`update "sso_domain" set "verification_token" = replace(gen_random_uuid()::text, '-', '');`);
    this.addSql(`alter table "sso_domain" alter column "verification_token" set not null;`);
    this.addSql(`alter table "sso_domain" add constraint "sso_domain_pkey" primary key ("company_id", "domain");`);
    this.addSql(
      `create unique index "sso_domain_verified_unique" on "sso_domain" ("domain") where "verified_at" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "sso_domain_verified_unique";`);
    this.addSql(`alter table "sso_domain" drop constraint "sso_domain_pkey";`);
    this.addSql(`alter table "sso_domain" drop column "verification_token", drop column "verified_at";`);
    this.addSql(`alter table "sso_domain" add constraint "sso_domain_pkey" primary key ("domain");`);
    this.addSql(`create index "sso_domain_company_id_index" on "sso_domain" ("company_id");`);
  }
}
