import { Migration } from '@mikro-orm/migrations';

// The super admin's list of the usage records kept aside (server/usage/aside.ts) pages by keyset on
// (received_at, source, record_id, start), newest first: a batch keeps up to 10,000 records aside at one instant, so
// received_at alone cannot mark where a page ends, and an index on it alone would make each page sort the whole
// instant's records. The index, under its name, now holds the list's whole order (and still serves received_at).
export class Migration20261128170000_usage_aside_list extends Migration {
  override name = 'Migration20261128170000_usage_aside_list';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_aside_received_index";`);
    this.addSql(
      `create index "usage_aside_received_index" on "usage_aside" ("received_at" desc, "source" desc, "record_id" desc, "start" desc);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "usage_aside_received_index";`);
    this.addSql(`create index "usage_aside_received_index" on "usage_aside" ("received_at" desc);`);
  }
}
