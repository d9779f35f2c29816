// Each listed SIM's usage for the list, the API and the export (issue 39): this Swedish month's bytes and the last
// sighting, read for a whole page at once with its tags (issue 40) and how fresh the company's data is (AS_OF_SQL):
// one statement for the page's ids, each a probe of the tables' keys, never a query per SIM.
import type { Em } from '#server/db/orm.ts';
import { readRows } from '#server/db/prepared.ts';
import { AS_OF_SQL } from '#server/usage/as-of.ts';
import { isoSql } from './rows.ts';
import { tagsFromRow } from './tags.ts';
import { monthOf } from './views.ts';

/** A SIM's usage as the API answers it (simUsageOutput). */
export type SimUsage = {
  month: string;
  monthBytesUp: number;
  monthBytesDown: number;
  monthBytes: number;
  lastSeenAt: string | null;
  lastSeenNetwork: string | null;
  lastSeenCountry: string | null;
  asOf: string | null;
};

export type UsageRow = {
  id: number;
  up: string | number | null;
  down: string | number | null;
  at: string | null;
  network: string | null;
  country: string | null;
};

/** A row's usage (LISTED_SQL's) as the answers show it (`month`: the first day of the Swedish month, `asOf`: ISO or null). */
export function usageFromRow(r: UsageRow, month: string, asOf: string | null): SimUsage {
  const up = Number(r.up ?? 0);
  const down = Number(r.down ?? 0);
  return {
    month: month.slice(0, 7),
    monthBytesUp: up,
    monthBytesDown: down,
    monthBytes: up + down,
    lastSeenAt: r.at,
    lastSeenNetwork: r.network,
    lastSeenCountry: r.country,
    asOf,
  };
}

/** A SIM's usage when none was read (no row): nothing this month, never seen. */
export const noUsage = (now = new Date(), asOf: string | null = null): SimUsage => ({
  month: monthOf(now).slice(0, 7),
  monthBytesUp: 0,
  monthBytesDown: 0,
  monthBytes: 0,
  lastSeenAt: null,
  lastSeenNetwork: null,
  lastSeenCountry: null,
  asOf,
});

/** A row of LISTED_SQL: the SIM's usage, its tags (json, in text order; null: none) and the company's asOf (ISO). */
export type ListedRow = UsageRow & { tags: string[] | string | null; as_of: string | null };

/**
 * The listed SIMs' usage this month and last sighting, their tags and how fresh the company's data is (the same on
 * every row, computed once), in one statement: each row a probe of the keys of usage_month, usage_last_seen and
 * sim_tag by (company, SIM), and the freshness AS_OF_SQL's probe. One statement, not three at once (usage, freshness,
 * tags): one pool connection and one round trip a page, and the database's work of one statement (bench:load's bare
 * baseline, bound by the database, served 10-35 % more requests with it; the portal's own CPU barely moved).
 */
export const LISTED_SQL = `select x.id, u.bytes_up as up, u.bytes_down as down, ${isoSql('l.at')} as at, l.network, l.country,
    (select json_agg(t.tag order by t.tag) from sim_tag t where t.company_id = ? and t.sim_id = x.id) as tags,
    (select ${isoSql('f.at')} from (${AS_OF_SQL}) f) as as_of
  from unnest(?::int[]) x(id)
  left join usage_month u on u.company_id = ? and u.sim_id = x.id and u.month = ?::date
  left join usage_last_seen l on l.company_id = ? and l.sim_id = x.id`;

/** LISTED_SQL's parameters for the company's SIMs of `ids` this Swedish month (`month`: monthOf). */
export const listedParams = (companyId: number, ids: readonly number[], month: string) => [
  companyId,
  companyId,
  `{${ids.map((id) => Math.trunc(id)).join(',')}}`,
  companyId,
  month,
  companyId,
];

/** The SIMs of `sims` with their rows of LISTED_SQL (a SIM without one: no usage, no tags). */
export function withListedRows<T extends { id: number }>(
  sims: T[],
  rows: ListedRow[],
  now: Date,
  /** How fresh the company's data is when the caller read it once for several pages (the export), else the rows'. */
  knownAsOf?: Date | null,
): Array<T & { usage: SimUsage; tags: string[] }> {
  const month = monthOf(now);
  const asOf = knownAsOf === undefined ? (rows[0]?.as_of ?? null) : knownAsOf && knownAsOf.toISOString();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return sims.map((s) => {
    const r = byId.get(s.id);
    return {
      ...s,
      usage: r ? usageFromRow(r, month, asOf) : noUsage(now, asOf),
      tags: r && r.tags !== null ? tagsFromRow({ tags: r.tags }) : [],
    };
  });
}

/**
 * The listed SIMs with their usage and their tags (none: an empty list), in one statement (LISTED_SQL) for the
 * list, the API's pages, one SIM and the export's batches.
 */
export async function withUsageAndTags<T extends { id: number }>(
  em: Em,
  companyId: number,
  sims: T[],
  opts: { now?: Date; asOf?: Date | null } = {},
): Promise<Array<T & { usage: SimUsage; tags: string[] }>> {
  const now = opts.now ?? new Date();
  if (sims.length === 0) return [];
  const rows = await readRows<ListedRow>(
    em,
    LISTED_SQL,
    listedParams(
      companyId,
      sims.map((s) => s.id),
      monthOf(now),
    ),
  );
  return withListedRows(sims, rows, now, opts.asOf);
}
