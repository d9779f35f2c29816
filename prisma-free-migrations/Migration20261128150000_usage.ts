import { Migration } from '@mikro-orm/migrations';

// Usage (docs/decisions/033, issue 39): the network's usage records and their totals, for 1,000,000 SIMs at a
// record each 15 minutes. The time series are partitioned by range (declarative partitioning, PostgreSQL and
// PGlite alike); the partitions are made on demand and ahead, and dropped past the retention, by
// server/usage/partitions.ts, never here:
// - usage_record: the raw records, a partition per UTC day of `start`; the key (company_id, start, source,
//   record_id) dedupes a record by its source and id, as a record's start and SIM never change at the source.
// - usage_day / usage_month: totals per SIM per Swedish day (a partition per month) and month (a partition per year).
// - usage_last_seen: each SIM's latest record (when, network, country); one row per SIM, not a time series.
// - usage_aside: records of an ICCID that is no active SIM's, the operator's (not a company's), a partition per
//   UTC month of `start`.
export class Migration20261128150000_usage extends Migration {
  override name = 'Migration20261128150000_usage';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "usage_record" ("company_id" int not null, "start" timestamptz not null, "source" varchar(100) not null, "record_id" varchar(100) not null, "sim_id" int not null, "end" timestamptz not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "network" varchar(7) null, "country" varchar(2) null, "rat" varchar(16) null, "imei" varchar(16) null, "received_at" timestamptz not null, primary key ("company_id", "start", "source", "record_id")) partition by range ("start");`,
    );
    this.addSql(`create index "usage_record_sim_index" on "usage_record" ("company_id", "sim_id", "start" desc);`);
    this.addSql(
      `create table "usage_day" ("company_id" int not null, "sim_id" int not null, "day" date not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "records" int not null, primary key ("company_id", "sim_id", "day")) partition by range ("day");`,
    );
    this.addSql(
      `create table "usage_month" ("company_id" int not null, "sim_id" int not null, "month" date not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "records" int not null, primary key ("company_id", "sim_id", "month")) partition by range ("month");`,
    );
    this.addSql(
      `create table "usage_last_seen" ("company_id" int not null, "sim_id" int not null, "at" timestamptz not null, "network" varchar(7) null, "country" varchar(2) null, primary key ("company_id", "sim_id"));`,
    );
    this.addSql(
      `create table "usage_aside" ("source" varchar(100) not null, "record_id" varchar(100) not null, "start" timestamptz not null, "iccid" varchar(20) not null, "end" timestamptz not null, "bytes_up" bigint not null, "bytes_down" bigint not null, "network" varchar(7) null, "country" varchar(2) null, "rat" varchar(16) null, "imei" varchar(16) null, "received_at" timestamptz not null, primary key ("source", "record_id", "start")) partition by range ("start");`,
    );
    this.addSql(`create index "usage_aside_received_index" on "usage_aside" ("received_at" desc);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "usage_aside";`);
    this.addSql(`drop table "usage_last_seen";`);
    this.addSql(`drop table "usage_month";`);
    this.addSql(`drop table "usage_day";`);
    this.addSql(`drop table "usage_record";`);
  }
}
