import { Migration } from '@mikro-orm/migrations';

// /sims by usage and last seen at 1,000,000 SIMs (issue 39, docs/decisions/035): each view walks an index in its
// own order and stops after the page, never sorting the fleet.
// - usage_month by the month's amount: "usage this month" either way, and "över 80 %" as a range of it (made on the
//   partitioned table: each year's partition gets its own, and so does each partition made later);
// - usage_last_seen by time with the SIM's id: "last seen" either way and the silent filters as a range of it. The
//   SIM's id breaks ties (records end on the same quarter hour for thousands of SIMs): without it each page sorted
//   every SIM of its instant (1.6 s for 3,335 of them).
export class Migration20261128190000_usage_fleet extends Migration {
  override name = 'Migration20261128190000_usage_fleet';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "usage_month_amount_index" on "usage_month" ("company_id", "month", ("bytes_up" + "bytes_down") desc, "sim_id" desc);`,
    );
    this.addSql(
      `create index "usage_last_seen_order_index" on "usage_last_seen" ("company_id", "at" desc, "sim_id" desc);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_last_seen_order_index";`);
    this.addSql(`drop index if exists "usage_month_amount_index";`);
  }
}
