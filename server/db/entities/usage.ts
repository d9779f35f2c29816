// Usage (docs/decisions/033): the raw records of the network's feed, the totals per SIM per Swedish day and month,
// each SIM's last sighting, and the records kept aside (unknown ICCID or a deactivated SIM). Written and read
// only by plain SQL (server/usage/), set-based; these entities are here so that the schema diff knows the tables.
// The time-series tables are partitioned by range in the migration (partitions made and dropped by
// server/usage/partitions.ts); the entities declare no partitioning, which MikroORM then leaves alone.
// Every tenant table's keys lead with company_id (Citus later, docs/decisions/033).
import { defineEntity, p } from '@mikro-orm/core';

const traffic = {
  bytesUp: p.bigint('number'),
  bytesDown: p.bigint('number'),
};

export const UsageRecordSchema = defineEntity({
  name: 'UsageRecord',
  tableName: 'usage_record',
  properties: {
    companyId: p.integer().primary(),
    start: p.datetime().primary(),
    source: p.string().length(100).primary(),
    recordId: p.string().length(100).primary(),
    simId: p.integer(),
    end: p.datetime(),
    ...traffic,
    network: p.string().length(7).nullable(),
    country: p.string().length(2).nullable(),
    rat: p.string().length(16).nullable(),
    imei: p.string().length(16).nullable(),
    receivedAt: p.datetime(),
  },
  // A SIM's latest records (its sessions) walk this: company, SIM, newest first.
  indexes: [
    {
      name: 'usage_record_sim_index',
      expression: 'create index "usage_record_sim_index" on "usage_record" ("company_id", "sim_id", "start" desc)',
    },
  ],
});
export class UsageRecord extends UsageRecordSchema.class {}
UsageRecordSchema.setClass(UsageRecord);

export const UsageDaySchema = defineEntity({
  name: 'UsageDay',
  tableName: 'usage_day',
  properties: {
    companyId: p.integer().primary(),
    simId: p.integer().primary(),
    day: p.date().primary(),
    ...traffic,
    records: p.integer(),
  },
  // GET /api/usage?groupBy=sim walks a period's totals in (day, SIM) order by keyset.
  indexes: [
    {
      name: 'usage_day_period_index',
      expression: 'create index "usage_day_period_index" on "usage_day" ("company_id", "day", "sim_id")',
    },
  ],
});
export class UsageDay extends UsageDaySchema.class {}
UsageDaySchema.setClass(UsageDay);

export const UsageMonthSchema = defineEntity({
  name: 'UsageMonth',
  tableName: 'usage_month',
  properties: {
    companyId: p.integer().primary(),
    simId: p.integer().primary(),
    // The first day of the Swedish month.
    month: p.date().primary(),
    ...traffic,
    records: p.integer(),
  },
  indexes: [
    // GET /api/usage?groupBy=sim walks a period's totals in (month, SIM) order by keyset.
    {
      name: 'usage_month_period_index',
      expression: 'create index "usage_month_period_index" on "usage_month" ("company_id", "month", "sim_id")',
    },
    // /sims by this month's usage and "över 80 %", and the home page's top ten, walk this (docs/decisions/035).
    {
      name: 'usage_month_amount_index',
      expression:
        'create index "usage_month_amount_index" on "usage_month" ("company_id", "month", ("bytes_up" + "bytes_down") desc, "sim_id" desc)',
    },
  ],
});
export class UsageMonth extends UsageMonthSchema.class {}
UsageMonthSchema.setClass(UsageMonth);

export const UsageLastSeenSchema = defineEntity({
  name: 'UsageLastSeen',
  tableName: 'usage_last_seen',
  properties: {
    companyId: p.integer().primary(),
    simId: p.integer().primary(),
    // The end of the SIM's latest record, and where it was.
    at: p.datetime(),
    network: p.string().length(7).nullable(),
    country: p.string().length(2).nullable(),
  },
  indexes: [
    // /sims by last seen and its silent filters walk this (the SIM's id breaks the ties, docs/decisions/035), and
    // the company's freshness (its latest sighting) and its SIMs seen since a time read it: the one index on `at`,
    // which every sighting moves (Migration20261130060000_last_seen_one_index).
    {
      name: 'usage_last_seen_order_index',
      expression:
        'create index "usage_last_seen_order_index" on "usage_last_seen" ("company_id", "at" desc, "sim_id" desc)',
    },
  ],
  // A SIM's first sighting marks it seen (sim.ever_seen; its function: the ever_seen migration).
  triggers: [
    {
      name: 'usage_last_seen_on_insert',
      timing: 'after',
      events: ['insert'],
      forEach: 'statement',
      expression:
        'create trigger "usage_last_seen_on_insert" after insert on "usage_last_seen" referencing new table as new_rows for each statement execute function "usage_last_seen_first"()',
    },
  ],
});
export class UsageLastSeen extends UsageLastSeenSchema.class {}
UsageLastSeenSchema.setClass(UsageLastSeen);

// The company's usage per Swedish day by rate plan and country (country '' when not said): the overview, /usage
// and GET /api/usage read these few rows, never the SIMs' totals.
export const UsageCompanyDaySchema = defineEntity({
  name: 'UsageCompanyDay',
  tableName: 'usage_company_day',
  properties: {
    companyId: p.integer().primary(),
    day: p.date().primary(),
    ratePlanId: p.integer().primary(),
    country: p.string().length(2).primary(),
    ...traffic,
    records: p.integer(),
  },
});
export class UsageCompanyDay extends UsageCompanyDaySchema.class {}
UsageCompanyDaySchema.setClass(UsageCompanyDay);

// The company's day by tag (GET /api/usage?groupBy=tag): each record under the tags its SIM had when it was taken in.
export const UsageTagDaySchema = defineEntity({
  name: 'UsageTagDay',
  tableName: 'usage_tag_day',
  properties: {
    companyId: p.integer().primary(),
    tag: p.string().length(40).collation('C').primary(),
    day: p.date().primary(),
    ...traffic,
    records: p.integer(),
  },
  indexes: [
    {
      name: 'usage_tag_day_day_index',
      expression: 'create index "usage_tag_day_day_index" on "usage_tag_day" ("company_id", "day", "tag")',
    },
  ],
});
export class UsageTagDay extends UsageTagDaySchema.class {}
UsageTagDaySchema.setClass(UsageTagDay);

// The operator's, not a company's: records whose ICCID is no active SIM's, kept as they came.
export const UsageAsideSchema = defineEntity({
  name: 'UsageAside',
  tableName: 'usage_aside',
  properties: {
    source: p.string().length(100).primary(),
    recordId: p.string().length(100).primary(),
    start: p.datetime().primary(),
    iccid: p.string().length(20),
    end: p.datetime(),
    ...traffic,
    network: p.string().length(7).nullable(),
    country: p.string().length(2).nullable(),
    rat: p.string().length(16).nullable(),
    imei: p.string().length(16).nullable(),
    receivedAt: p.datetime(),
  },
  indexes: [
    {
      name: 'usage_aside_received_index',
      expression:
        'create index "usage_aside_received_index" on "usage_aside" ("received_at" desc, "source" desc, "record_id" desc, "start" desc)',
    },
  ],
});
export class UsageAside extends UsageAsideSchema.class {}
UsageAsideSchema.setClass(UsageAside);
