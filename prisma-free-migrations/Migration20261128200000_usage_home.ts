import { Migration } from '@mikro-orm/migrations';

// The company's usage by SIM (GET /api/usage?groupBy=sim, issue 39): its pages are in (period, SIM) order, read by
// keyset, so each SIM's day and month totals get an index in that order beside their key (company, SIM, period).
// Without it a page sorted every SIM's total of the period (8 s for a page of November at 1,000,000 SIMs); with
// it a page reads its own rows (5 index pages and one probe of sim each). Made on the partitioned tables: each
// partition gets its own, and so does each made later. The updates of the ingest change no indexed column.
// And the home page's ten SIMs using most this month walk usage_month by the month's amount: the index /sims sorts
// by usage with (Migration20261128190000_usage_fleet makes it; made here too if missing, same name and definition).
export class Migration20261128200000_usage_home extends Migration {
  override name = 'Migration20261128200000_usage_home';

  override up(): void | Promise<void> {
    this.addSql(`create index "usage_day_period_index" on "usage_day" ("company_id", "day", "sim_id");`);
    this.addSql(`create index "usage_month_period_index" on "usage_month" ("company_id", "month", "sim_id");`);
    this.addSql(
      `create index if not exists "usage_month_amount_index" on "usage_month" ("company_id", "month", ("bytes_up" + "bytes_down") desc, "sim_id" desc);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_month_period_index";`);
    this.addSql(`drop index if exists "usage_day_period_index";`);
  }
}
