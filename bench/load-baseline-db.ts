// What both bench:load baselines share: a `pg` pool of the portal's size (10), the portal's own SQL (imported
// from its modules, `?` made `$n`) and the session check every portal request does (the session row by the
// SHA-256 of the cookie, idle and absolute timeouts; the acting company of a super admin).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { IDLE_TIMEOUT_MS, SESSION_SQL as SESSION } from '#server/auth/sessions.ts';
import { numberedSql } from '#server/db/prepared.ts';
import { HISTORY_PAGE, HISTORY_SQL, ONE_SQL as ONE, PAUSED_BY_SQL } from '#server/sims/read.ts';
import { type SimRow, simView } from '#server/sims/rows.ts';
import { listSql, WHOLE_LIST } from '#server/sims/search.ts';
import { COMPANY_TAGS_SQL } from '#server/sims/tags.ts';
import { LISTED_SQL, listedParams, withListedRows, type ListedRow } from '#server/sims/usage.ts';
import { monthOf } from '#server/sims/views.ts';

export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

export type Row = Record<string, unknown>;

/**
 * pg's default: an unnamed statement, parsed and planned on every call. BASELINE_PREPARED=1: a named prepared
 * statement per query (parsed and planned once per connection), as the portal runs its hot reads
 * (server/db/prepared.ts); bench:load prints that variant beside the target's baseline, for information.
 */
const PREPARED = process.env.BASELINE_PREPARED === '1';
export function query(name: string, text: string, values: unknown[]) {
  return pool.query<Row>(PREPARED ? { name, text, values } : { text, values });
}

const SESSION_SQL = numberedSql(SESSION);
export const LIST_SQL = numberedSql(listSql(WHOLE_LIST).page);
export const COUNT_SQL = numberedSql(listSql(WHOLE_LIST).count);
export const ONE_SQL = numberedSql(ONE);
export const EVENTS_SQL = numberedSql(HISTORY_SQL);
/** The history read's parameters after the company and the SIM: the newest page (no `before`), one more than a page. */
export const NEWEST_EVENTS = [null, HISTORY_PAGE + 1] as const;
export const PAUSED_SQL = numberedSql(PAUSED_BY_SQL);
// Each SIM's usage this month and last sighting, its tags and how fresh the company's data is (issues 39, 40).
export const USAGE_SQL = numberedSql(LISTED_SQL);
// The company's tags (issue 40), which /sims lists beside its tag filter.
export const TAGS_SQL = numberedSql(COMPANY_TAGS_SQL);

/** The SIMs of `rows` as the portal answers them (its own row mapping): with their usage this month and their tags. */
export async function withUsageAndTags(company: number, rows: Row[]) {
  const now = new Date();
  const ids = rows.map((r) => Number(r.id));
  const usage = await query('usage', USAGE_SQL, listedParams(company, ids, monthOf(now)));
  return withListedRows(
    rows.map((r) => simView(r as SimRow)),
    usage.rows as ListedRow[],
    now,
  );
}

/** The company the request's session acts for, or null (no cookie, unknown, idle or expired session). */
export async function companyOf(cookie: string | null | undefined): Promise<number | null> {
  const raw = /(?:^|;\s*)sim_session=([A-Za-z0-9_-]{20,100})/.exec(cookie ?? '')?.[1];
  if (raw === undefined) return null;
  const { rows } = await query('session', SESSION_SQL, [createHash('sha256').update(raw).digest('hex')]);
  const s = rows[0];
  if (!s) return null;
  const now = Date.now();
  if (now - (s.last_seen_at as Date).getTime() > IDLE_TIMEOUT_MS || (s.expires_at as Date).getTime() <= now)
    return null;
  return (s.is_super_admin && s.acting_id ? s.acting_id : s.company_id) as number;
}
