import { Migration } from '@mikro-orm/migrations';

export class Migration20261122122837_rate_limit extends Migration {
  override name = 'Migration20261122122837_rate_limit';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "rate_limit_counter" ("key" varchar(300) not null, "count" int not null, "window_start" timestamptz not null, primary key ("key"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rate_limit_counter" cascade;`);
  }
}
