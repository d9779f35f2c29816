import { Migration } from '@mikro-orm/migrations';

// The company's usage per Swedish day, by rate plan and country (issue 39): what the home page's overview, the usage
// page (/usage) and GET /api/usage?groupBy=plan|country read, kept by the ingest's statement beside the SIMs' day
// totals from the same inserted rows. A company has a few thousand rows a year (days x plans x countries), so the
// company's month or 90 days is read from a few hundred rows, never from its 1,000,000 SIMs' totals. Country ''
// when the network did not say. Not partitioned: it is small; its retention deletes whole months
// (server/usage/partitions.ts).
// And each SIM's last sighting by time, per company: the freshness of the company's data ("Data till och med",
// one probe) and the SIMs seen, or not, within a time.
export class Migration20261128180000_usage_company_day extends Migration {
  override name = 'Migration20261128180000_usage_company_day';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "usage_company_day" ("company_id" int not null, "day" date not null, "rate_plan_id" int not null, "country" varchar(2) not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "records" int not null, primary key ("company_id", "day", "rate_plan_id", "country"));`,
    );
    this.addSql(`create index "usage_last_seen_at_index" on "usage_last_seen" ("company_id", "at" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_last_seen_at_index";`);
    this.addSql(`drop table if exists "usage_company_day";`);
  }
}
