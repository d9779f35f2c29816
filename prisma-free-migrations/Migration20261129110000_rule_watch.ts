import { Migration } from '@mikro-orm/migrations';

// What the rules' background work keeps per rule (issue 40): how far the silence sweep has looked (the SIMs whose
// deadline passed before it were checked) and when the rule's last e-mail digest went out (one an hour). A row per
// rule, made by the first sweep or digest; locked per rule, so two instances never do one rule's work at once.
export class Migration20261129110000_rule_watch extends Migration {
  override name = 'Migration20261129110000_rule_watch';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "rule_watch" ("rule_id" int not null, "silence_checked_until" timestamptz null, "digest_sent_at" timestamptz null, primary key ("rule_id"));`,
    );
    this.addSql(
      `alter table "rule_watch" add constraint "rule_watch_rule_id_foreign" foreign key ("rule_id") references "rule" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rule_watch";`);
  }
}
