import { Migration } from '@mikro-orm/migrations';

// A SIM's tags (issue 40): one row per SIM and tag, company first in every key (docs/scaling.md). The key
// (company, SIM, tag) reads a page's tags and keeps a tag once per SIM; the index (company, tag, SIM) lists a tag's
// SIMs in id order (the list's filter, a rename, the company's tags by a skip scan). The tag in code point order
// (collate "C"): the same order on every server, whatever its default collation.
export class Migration20261129000000_sim_tags extends Migration {
  override name = 'Migration20261129000000_sim_tags';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "sim_tag" ("company_id" int not null, "sim_id" int not null, "tag" varchar(40) collate "C" not null, primary key ("company_id", "sim_id", "tag"));`,
    );
    this.addSql(`create index "sim_tag_tag_index" on "sim_tag" ("company_id", "tag", "sim_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "sim_tag";`);
  }
}
