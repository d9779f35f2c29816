import { Migration } from '@mikro-orm/migrations';

// The company's usage per Swedish day by tag (issue 40: GET /api/usage?groupBy=tag), kept by the ingest's statement
// beside the company's days by plan and country, from the same inserted rows: each record counts under the tags its
// SIM has when it is taken in (as cloud bills count cost tags: a tag added today counts from today; a record of a
// SIM with two tags counts under each). A company has days x tags rows (a few hundred thousand a year at most), so a
// tag's month is read from its own 31 rows, never from its 500,000 SIMs' totals. Not partitioned: retention deletes
// whole months with the company's days (server/usage/partitions.ts).
export class Migration20261129120000_usage_tag_day extends Migration {
  override name = 'Migration20261129120000_usage_tag_day';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "usage_tag_day" ("company_id" int not null, "tag" varchar(40) collate "C" not null, "day" date not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "records" int not null, primary key ("company_id", "tag", "day"));`,
    );
    // GET /api/usage?groupBy=tag walks a period in (day, tag) order.
    this.addSql(`create index "usage_tag_day_day_index" on "usage_tag_day" ("company_id", "day", "tag");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "usage_tag_day";`);
  }
}
