// The request budgets: per API key, per signed-in user and per company, fixed one-minute windows shared by every
// instance through the rate_limit_counter table; a request spends every budget that applies to it or none; a bulk
// list weighs its rows; the IETF draft's RateLimit-* headers tell the caller where its tightest budget stands (set
// before the procedure runs, so error answers carry them too).
import type { Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import type { SessionInfo } from '#server/auth/sessions.ts';
import type { Em } from '#server/db/orm.ts';
import type { Services } from '#server/services.ts';

export const RATE_WINDOW_MS = 60 * 1000;

/** Where a caller stands after a hit: the budget, what is left of it, the seconds until the window ends. */
export type RateLimitState = { allowed: boolean; limit: number; remaining: number; resetSeconds: number };

/** One budget a request spends: its counter row's key (`apiKey:<id>`, `user:<id>`, `company:<id>`) and its size. */
export type Budget = { key: string; max: number };

/** Where the budgets of one request stand: the tightest one's state, and the budget that refused (if any). */
export type SpentState = RateLimitState & { refusedBy: Budget | null };

type Count = { window: number; shared: number; pending: number; syncedAt: number };

/**
 * The weighted hits per minute of each budget, shared by every instance through one counter row per budget in
 * fixed windows aligned to the minute, so all instances agree on the window without asking. A write per request
 * would cost more than the request (bench:load), so each instance adds its hits to the row in chunks: as soon as
 * `max / 20` have gathered (every hit when the budget is 20 or less; a hit weighing a chunk or more syncs at once)
 * or a second has passed, reading back the sum of all instances. Between two syncs an instance may let through at
 * most a chunk more than the budget, and Remaining is off by at most as much.
 */
export class RateLimiter {
  private readonly counts = new Map<string, Count>();

  /**
   * Counts a hit of this weight against the budget `key`, unless it does not fit: then nothing is counted. A hit
   * weighing more than the whole budget costs the whole budget (a list longer than the budget fits only into an
   * untouched window, and spends it).
   */
  async hit(em: Em, key: string, max: number, weight = 1, now = new Date()): Promise<RateLimitState> {
    const { refusedBy: _, ...state } = await this.spend(em, [{ key, max }], weight, now);
    return state;
  }

  /**
   * Counts a hit of this weight against every budget (a key's or a user's, and its company's), unless it does not
   * fit into one of them: then nothing is counted anywhere. The state answered is the tightest budget's (the least
   * left; of equals, the smaller), or the refusing one's.
   */
  async spend(em: Em, budgets: Budget[], weight = 1, now = new Date()): Promise<SpentState> {
    const t = now.getTime();
    const window = Math.floor(t / RATE_WINDOW_MS) * RATE_WINDOW_MS;
    const resetSeconds = Math.max(1, Math.ceil((window + RATE_WINDOW_MS - t) / 1000));
    const entries = budgets.map((b) => ({ b, e: this.entry(b.key, window), cost: costOf(b.max, weight) }));
    const stateOf = ({ b, e }: (typeof entries)[number], allowed: boolean): SpentState => ({
      allowed,
      limit: b.max,
      remaining: Math.max(0, b.max - e.shared - e.pending),
      resetSeconds,
      refusedBy: allowed ? null : b,
    });
    const tightest = (list: typeof entries, allowed: boolean) =>
      list
        .map((x) => stateOf(x, allowed))
        .reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.limit < a.limit) ? b : a));
    const full = entries.filter(({ b, e, cost }) => e.shared + e.pending + cost > b.max);
    if (full.length) return tightest(full, false);
    for (const x of entries) x.e.pending += x.cost;
    const spent: typeof entries = [];
    for (const x of entries) {
      await this.sync(em, x.b, x.e, window, t);
      // Other instances spent the budget meanwhile: this hit, counted already, is refused too.
      if (x.e.shared > x.b.max) spent.push(x);
    }
    return spent.length ? tightest(spent, false) : tightest(entries, true);
  }

  private entry(key: string, window: number): Count {
    let found = this.counts.get(key);
    if (!found || found.window !== window) {
      if (this.counts.size > 10_000) for (const [k, x] of this.counts) if (x.window !== window) this.counts.delete(k);
      found = { window, shared: 0, pending: 0, syncedAt: 0 };
      this.counts.set(key, found);
    }
    return found;
  }

  /** Adds this instance's pending hits to the shared row when a chunk has gathered or a second has passed. */
  private async sync(em: Em, b: Budget, e: Count, window: number, t: number): Promise<void> {
    const chunk = Math.max(1, Math.floor(b.max / 20));
    if (e.pending < chunk && t - e.syncedAt < 1000) return;
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
      [b.key, delta, new Date(window)],
    );
    // Another instance's hits count too; this one's own hits since are still pending.
    if (e.window === window) e.shared = Math.max(e.shared, Number(rows[0]?.count ?? 0));
  }
}

/** What a hit of this weight costs a budget of this size: at least 1, at most the whole budget. */
const costOf = (max: number, weight: number) => Math.min(max, Math.max(1, Math.floor(weight)));

/** The IETF draft's RateLimit-Limit, -Remaining and -Reset, as separate fields. */
export function setRateLimitHeaders(res: Response | undefined, s: RateLimitState): void {
  if (!res || res.headersSent) return;
  res.setHeader('RateLimit-Limit', String(s.limit));
  res.setHeader('RateLimit-Remaining', String(s.remaining));
  res.setHeader('RateLimit-Reset', String(s.resetSeconds));
}

/**
 * A caller over one of its budgets (an API key's, a signed-in user's, or its company's): 429 with Retry-After (the
 * seconds left of its window) and the RateLimit-* headers.
 */
export class RateLimited extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

// One per server instance: the budgets' counts it has not yet added to the shared rows.
const limiter = new RateLimiter();

/** The budget of the company a caller acts for. */
export const companyBudget = (services: Services, companyId: number): Budget => ({
  key: `company:${companyId}`,
  max: services.config.companyRateLimit,
});

/**
 * Counts the request against its budgets and puts where the tightest stands on the answer; over one of them, the
 * refusal names which: the company's, or the caller's own (`own`).
 */
export async function spendBudgets(
  em: Em,
  req: Request,
  budgets: Budget[],
  weight: number,
  own: (seconds: number) => string,
): Promise<RateLimited | null> {
  const state = await limiter.spend(em, budgets, weight);
  setRateLimitHeaders(req.res, state);
  const seconds = state.resetSeconds;
  return state.refusedBy
    ? new RateLimited(
        seconds,
        state.refusedBy.key.startsWith('company:') ? t.errors.companyRateLimited(seconds) : own(seconds),
      )
    : null;
}

/**
 * Counts a signed-in user's request (of this weight) against the user's budget and the company's it acts for;
 * throws RateLimited when over one. `door` picks the words of the user's own refusal: the API's or the pages'.
 */
export async function spendSessionBudgets(
  services: Services,
  em: Em,
  req: Request,
  session: SessionInfo,
  weight: number,
  door: 'api' | 'page',
): Promise<void> {
  const budgets = [
    { key: `user:${session.userId}`, max: services.config.apiSessionRateLimit },
    companyBudget(services, session.companyId),
  ];
  const refusal = await spendBudgets(
    em,
    req,
    budgets,
    weight,
    door === 'api' ? t.errors.rateLimited : t.errors.pageRateLimited,
  );
  if (refusal) throw refusal;
}
