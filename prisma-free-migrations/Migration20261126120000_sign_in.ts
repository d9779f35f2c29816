import { Migration } from '@mikro-orm/migrations';

// Sign-in beyond the e-mail link (server/db/entities/security.ts): passkeys and recovery codes, WebAuthn
// challenges, single sign-on per company, and the session's stage, method, step-up time, browser and address.

export class Migration20261126120000_sign_in extends Migration {
  override name = 'Migration20261126120000_sign_in';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sso_config" ("company_id" int not null, "issuer" varchar(500) not null, "client_id" varchar(300) not null, "client_secret" text not null, "allow_email_link" boolean not null default true, "create_users" boolean not null default false, "mfa_claim" varchar(200) null, "updated_at" timestamptz not null, primary key ("company_id"));`,
    );

    this.addSql(
      `create table "sso_domain" ("domain" varchar(253) not null, "company_id" int not null, primary key ("domain"));`,
    );
    this.addSql(`create index "sso_domain_company_id_index" on "sso_domain" ("company_id");`);

    this.addSql(
      `create table "sso_login" ("state_hash" varchar(64) not null, "company_id" int not null, "binding" varchar(64) not null, "code_verifier" varchar(128) not null, "nonce" varchar(128) not null, "step_up_session" varchar(64) null, "redirect_to" varchar(2000) null, "expires_at" timestamptz not null, primary key ("state_hash"));`,
    );
    this.addSql(`create index "sso_login_expires_at_index" on "sso_login" ("expires_at");`);

    this.addSql(
      `create table "recovery_code" ("id" serial primary key, "user_id" int not null, "code_hash" varchar(64) not null, "created_at" timestamptz not null, "used_at" timestamptz null);`,
    );
    this.addSql(`create index "recovery_code_user_id_index" on "recovery_code" ("user_id");`);
    this.addSql(`alter table "recovery_code" add constraint "recovery_code_code_hash_unique" unique ("code_hash");`);

    this.addSql(
      `create table "passkey" ("id" serial primary key, "user_id" int not null, "credential_id" varchar(1400) not null, "public_key" text not null, "counter" bigint not null default '0', "transports" text[] not null default '{}', "device_type" varchar(20) not null, "backed_up" boolean not null, "name" varchar(100) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null);`,
    );
    this.addSql(`create index "passkey_user_id_index" on "passkey" ("user_id");`);
    this.addSql(`alter table "passkey" add constraint "passkey_credential_id_unique" unique ("credential_id");`);

    this.addSql(
      `create table "webauthn_challenge" ("challenge" varchar(100) not null, "purpose" varchar(20) not null, "binding" varchar(64) not null, "user_id" int null, "expires_at" timestamptz not null, primary key ("challenge"));`,
    );
    this.addSql(`create index "webauthn_challenge_binding_index" on "webauthn_challenge" ("binding");`);
    this.addSql(`create index "webauthn_challenge_expires_at_index" on "webauthn_challenge" ("expires_at");`);

    this.addSql(`alter table "company" add "require_passkeys" boolean not null default false;`);

    this.addSql(`alter table "audit_event" drop constraint "audit_event_kind_check";`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_kind_check" check ("kind" in ('simActivated', 'simUpdated', 'simDeactivated', 'bulk', 'user', 'apiKey', 'webhook', 'support', 'company', 'security'));`,
    );

    this.addSql(
      `alter table "app_session" add "stage" text not null default 'full', add "method" varchar(20) not null default 'link', add "stepped_up_at" timestamptz null, add "user_agent" varchar(300) null, add "ip" varchar(64) null;`,
    );
    this.addSql(
      `alter table "app_session" add constraint "app_session_stage_check" check ("stage" in ('full', 'passkey', 'register'));`,
    );

    this.addSql(
      `alter table "sso_config" add constraint "sso_config_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "sso_domain" add constraint "sso_domain_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "sso_login" add constraint "sso_login_company_id_foreign" foreign key ("company_id") references "company" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "recovery_code" add constraint "recovery_code_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "passkey" add constraint "passkey_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "webauthn_challenge" add constraint "webauthn_challenge_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sso_config" cascade;`);
    this.addSql(`drop table if exists "sso_domain" cascade;`);
    this.addSql(`drop table if exists "sso_login" cascade;`);
    this.addSql(`drop table if exists "recovery_code" cascade;`);
    this.addSql(`drop table if exists "passkey" cascade;`);
    this.addSql(`drop table if exists "webauthn_challenge" cascade;`);

    this.addSql(`alter table "app_session" drop constraint "app_session_stage_check";`);
    this.addSql(
      `alter table "app_session" drop column "stage", drop column "method", drop column "stepped_up_at", drop column "user_agent", drop column "ip";`,
    );

    this.addSql(`alter table "company" drop column "require_passkeys";`);
    this.addSql(`alter table "audit_event" drop constraint "audit_event_kind_check";`);
    this.addSql(
      `alter table "audit_event" add constraint "audit_event_kind_check" check ("kind" in ('simActivated', 'simUpdated', 'simDeactivated', 'bulk', 'user', 'apiKey', 'webhook', 'support', 'company'));`,
    );
  }
}
