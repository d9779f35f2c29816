import { Migration } from '@mikro-orm/migrations';

// The ingest's evaluation finds, for each SIM of a batch, the rules of each kind whose threshold its total reached:
// a range of this index per SIM and kind, instead of every rule of the company tested against every SIM (100
// rules and a batch of 5,000 SIMs: 500,000 pairs a batch).
export class Migration20261129220000_rule_threshold extends Migration {
  override name = 'Migration20261129220000_rule_threshold';

  override up(): void | Promise<void> {
    this.addSql(
      `create index "rule_threshold_index" on "rule" ("company_id", "condition", "threshold") where "enabled";`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "rule_threshold_index";`);
  }
}
