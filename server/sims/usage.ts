// Each listed SIM's usage for the list, the API and the export (issue 39): this Swedish month's bytes and the last
// sighting, read for a whole page at once (one statement for its ids, each a probe of the two tables' keys),
// never a query per SIM; and how fresh the company's data is (usageAsOf).
import type { Em } from '#server/db/orm.ts';
import { readRows } from '#server/db/prepared.ts';
import { usageAsOf } from '#server/usage/as-of.ts';
import { isoSql } from './rows.ts';
import { tagsOfSims } from './tags.ts';
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

export const USAGE_OF_SQL = `select x.id, u.bytes_up as up, u.bytes_down as down, ${isoSql('l.at')} as at, l.network, l.country
  from unnest(?::int[]) x(id)
  left join usage_month u on u.company_id = ? and u.sim_id = x.id and u.month = ?::date
  left join usage_last_seen l on l.company_id = ? and l.sim_id = x.id`;

/** The usage of the company's SIMs of `ids` this Swedish month (of `now`), by id; every id has one (zero, never seen). */
export async function usageOfSims(
  em: Em,
  companyId: number,
  ids: readonly number[],
  now = new Date(),
  /** How fresh the company's data is, when the caller has it (an export reads it once for its batches). */
  knownAsOf?: Date | null,
): Promise<Map<number, SimUsage>> {
  const month = monthOf(now);
  const [rows, asOf] = await Promise.all([
    ids.length === 0
      ? Promise.resolve([] as UsageRow[])
      : readRows<UsageRow>(em, USAGE_OF_SQL, [
          `{${ids.map((id) => Math.trunc(id)).join(',')}}`,
          companyId,
          month,
          companyId,
        ]),
    knownAsOf === undefined ? usageAsOf(em, companyId) : knownAsOf,
  ]);
  const asOfText = asOf ? asOf.toISOString() : null;
  return new Map(rows.map((r) => [Number(r.id), usageFromRow(r, month, asOfText)]));
}

/** A row of USAGE_OF_SQL as the answers show it (`month`: the first day of the Swedish month, `asOf`: ISO or null). */
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

/**
 * The listed SIMs with their usage and their tags (none: an empty list): the two statements for all of them, run at
 * once (the list, the API's pages and the export's batches wait for the longer, not for both).
 */
export async function withUsageAndTags<T extends { id: number }>(
  em: Em,
  companyId: number,
  sims: T[],
  opts: { now?: Date; asOf?: Date | null } = {},
): Promise<Array<T & { usage: SimUsage; tags: string[] }>> {
  const now = opts.now ?? new Date();
  const ids = sims.map((s) => s.id);
  const [usage, tags] = await Promise.all([
    usageOfSims(em, companyId, ids, now, opts.asOf),
    tagsOfSims(em, companyId, ids),
  ]);
  return sims.map((s) => ({ ...s, usage: usage.get(s.id) ?? noUsage(now), tags: tags.get(s.id) ?? [] }));
}
