import { Migration } from '@mikro-orm/migrations';

// An endpoint's next due delivery is the first of (next_attempt_at, id): the partial index holds both, so the claim
// reads one entry. Without the id it sorted every due delivery of the endpoint that shared the first time, and the
// events one statement writes share it: a rule firing for 100,000 SIMs made each claim sort tens of thousands of
// rows (bench:rules: under 30 deliveries a second, and fewer as the backlog grew).
export class Migration20261129130000_webhook_due_order extends Migration {
  override name = 'Migration20261129130000_webhook_due_order';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_delivery_endpoint_due_index";`);
    this.addSql(
      `create index "webhook_delivery_endpoint_due_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at", "id") where "status" = 'pending';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "webhook_delivery_endpoint_due_index";`);
    this.addSql(
      `create index "webhook_delivery_endpoint_due_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at") where "status" = 'pending';`,
    );
  }
}
