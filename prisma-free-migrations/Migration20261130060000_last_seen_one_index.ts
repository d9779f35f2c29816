import { Migration } from '@mikro-orm/migrations';

// usage_last_seen kept two indexes led by (company_id, at desc): `usage_last_seen_at_index` (the company's freshness,
// its SIMs seen since a time) and `usage_last_seen_order_index` (the same with the SIM's id after, for /sims by last
// seen). The second answers everything the first did, so the first goes: every sighting the ingest writes moves `at`,
// and each index on it is one more entry written a record (the statement's last-sighting part: 170 ms of 10,000
// records at 1,000,000 SIMs, on three indexes). Reads read the same rows in the same order from the other.
export class Migration20261130060000_last_seen_one_index extends Migration {
  override name = 'Migration20261130060000_last_seen_one_index';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_last_seen_at_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "usage_last_seen_at_index" on "usage_last_seen" ("company_id", "at" desc);`);
  }
}
