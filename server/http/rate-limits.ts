// The REST paths' request budgets: per API key and per signed-in user, fixed one-minute windows shared by every
// instance through the rate_limit_counter table, a bulk list weighing its rows, and the IETF draft's RateLimit-*
// headers that tell the caller where it stands (set before the procedure runs, so error answers carry them too).
import type { Request, Response } from 'express';
import type { Em } from '#server/db/orm.ts';

export const RATE_WINDOW_MS = 60 * 1000;

/** Where a caller stands after a hit: the budget, what is left of it, the seconds until the window ends. */
export type RateLimitState = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

type Count = { window: number; shared: number; pending: number; syncedAt: number };

/**
 * The weighted hits per minute of each budget (`apiKey:<id>`, `user:<id>`), shared by every instance through one
 * counter row per budget in fixed windows aligned to the minute, so all instances agree on the window without
 * asking. A write per request would cost more than the request (bench:load), so each instance adds its hits to
 * the row in chunks: as soon as `max / 20` have gathered (every hit when the budget is 20 or less; a hit weighing
 * a chunk or more syncs at once) or a second has passed, reading back the sum of all instances. Between two syncs
 * an instance may let through at most a chunk more than the budget, and Remaining is off by at most as much.
 */
export class RateLimiter {
  private readonly counts = new Map<string, Count>();

  /**
   * Counts a hit of this weight against the budget `key`, unless it does not fit: then nothing is counted. A hit
   * weighing more than the whole budget costs the whole budget (a list longer than the budget fits only into an
   * untouched window, and spends it).
   */
  async hit(em: Em, key: string, max: number, weight = 1, now = new Date()): Promise<RateLimitState> {
    const t = now.getTime();
    const window = Math.floor(t / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    let found = this.counts.get(key);
    if (!found || found.window !== window) {
      if (this.counts.size > 10_000) for (const [k, x] of this.counts) if (x.window !== window) this.counts.delete(k);
      found = { window, shared: 0, pending: 0, syncedAt: 0 };
      this.counts.set(key, found);
    }
    const e = found;
    const resetSeconds = Math.max(1, Math.ceil((window + RATE_WINDOW_MS - t) / 1000));
    const state = (allowed: boolean) => ({
      allowed,
      limit: max,
      remaining: Math.max(0, max - e.shared - e.pending),
      resetSeconds,
    });
    const cost = Math.min(max, Math.max(1, Math.floor(weight)));
    if (e.shared + e.pending + cost > max) return state(false);
    e.pending += cost;
    const chunk = Math.max(1, Math.floor(max / 20));
    if (e.pending >= chunk || t - e.syncedAt >= 1000) {
      const delta = e.pending;
      e.pending = 0;
      e.syncedAt = t;
      const rows = await em.getConnection().execute<{ count: number | string }[]>(
        `insert into rate_limit_counter (key, count, window_start) values (?, ?, ?)
         on conflict (key) do update set
           count = case when rate_limit_counter.window_start < excluded.window_start then excluded.count
             else rate_limit_counter.count + excluded.count end,
           window_start = greatest(rate_limit_counter.window_start, excluded.window_start)
         returning count`,
        [key, delta, new Date(window)],
      );
      // Another instance's hits count too; this one's own hits since are still pending.
      if (e.window === window) e.shared = Math.max(e.shared, Number(rows[0]!.count));
      // Other instances spent the budget meanwhile: this hit, counted already, is refused too.
      if (e.shared > max) return state(false);
    }
    return state(true);
  }
}

const BULK_PATH = /^\/api\/sim\/bulk(\/deactivate)?\/?$/i;

/**
 * What a REST request costs: the rows of a bulk list (POST /api/sim/bulk: iccids or rows; /deactivate: ids),
 * counted from the body server/http/bodies.ts already read, at least 1; any other request 1. A body that is not
 * such a list costs 1 (the door refuses it with 400).
 */
export function requestWeight(req: Request): number {
  if (req.method !== 'POST' || !req.rawBody?.length || !BULK_PATH.test(req.baseUrl + req.path)) return 1;
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    return 1;
  }
  if (!body || typeof body !== 'object') return 1;
  const { iccids, rows, ids } = body as Record<string, unknown>;
  const list = [iccids, rows, ids].find(Array.isArray);
  return Math.max(1, list?.length ?? 1);
}

/** The IETF draft's RateLimit-Limit, -Remaining and -Reset, as separate fields. */
export function setRateLimitHeaders(res: Response | undefined, s: RateLimitState): void {
  if (!res || res.headersSent) return;
  res.setHeader('RateLimit-Limit', String(s.limit));
  res.setHeader('RateLimit-Remaining', String(s.remaining));
  res.setHeader('RateLimit-Reset', String(s.resetSeconds));
}
