// Fixed-window counters in the database, so several server instances share them.
// One atomic upsert per hit: no read-then-write race.
import { defined } from '#domain/defined.ts';
import type { Em } from '#server/db/orm.ts';

export type Limit = { max: number; windowMs: number };

/** Counts a hit on key; true while the count within the window is at most max. */
export async function hit(em: Em, key: string, limit: Limit, now = new Date()): Promise<boolean> {
  const windowStart = new Date(now.getTime() - limit.windowMs);
  const rows = await em.getConnection().execute<{ count: number }[]>(
    `insert into rate_limit_counter (key, count, window_start) values (?, 1, ?)
     on conflict (key) do update set
       count = case when rate_limit_counter.window_start <= ? then 1 else rate_limit_counter.count + 1 end,
       window_start = case when rate_limit_counter.window_start <= ? then excluded.window_start else rate_limit_counter.window_start end
     returning count`,
    [key, now, windowStart, windowStart],
  );
  return Number(defined(rows[0], 'the rate-limit counter the upsert returns').count) <= limit.max;
}
