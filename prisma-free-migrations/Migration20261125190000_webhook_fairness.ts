import { Migration } from '@mikro-orm/migrations';

// Deliveries fair by endpoint (a lease per endpoint, round-robin by when it was
// last served, a backoff of the endpoint as a whole) and a rotated secret that keeps signing for an overlap.
// The due index leads with the endpoint, as the worker now asks per endpoint.
export class Migration20261125190000_webhook_fairness extends Migration {
  override name = 'Migration20261125190000_webhook_fairness';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_endpoint" add "previous_secret" varchar(100) null, add "previous_secret_until" timestamptz null, add "busy_until" timestamptz null, add "served_at" timestamptz null, add "failures_in_row" int not null default 0, add "resume_at" timestamptz null;`,
    );
    this.addSql(`drop index "webhook_delivery_due_index";`);
    this.addSql(
      `create index "webhook_delivery_endpoint_due_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at") where "status" = 'pending';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "webhook_delivery_endpoint_due_index";`);
    this.addSql(
      `create index "webhook_delivery_due_index" on "webhook_delivery" ("next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `alter table "webhook_endpoint" drop column "previous_secret", drop column "previous_secret_until", drop column "busy_until", drop column "served_at", drop column "failures_in_row", drop column "resume_at";`,
    );
  }
}
