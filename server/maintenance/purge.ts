// Rows that no longer do anything are deleted regularly: login links long expired, rate-limit counters
// whose window is over, sessions past their absolute or idle timeout. Otherwise these tables only grow
// (every login request adds counters and a link; an abandoned session is never looked up again), and the
// ceremonies never finished: passkey challenges and single sign-on logins past their expiry.
// Every server instance runs it: the deletes are plain and idempotent, so two instances purging at once
// only share the work (a row deleted by one is skipped by the other).
import type { QueryResult } from '@mikro-orm/core';
import { LoginToken, RateLimitCounter, Session, SsoLogin, WebauthnChallenge } from '#server/db/entities.ts';
import type { Em, Orm } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import { ADDRESS_LIMIT, ADDRESS_SOURCE_LIMIT, IP_LIMIT } from '#server/auth/login-limits.ts';
import { IDLE_TIMEOUT_MS } from '#server/auth/sessions.ts';
import { IDEMPOTENCY_KEPT_MS } from '#server/db/entities/idempotency.ts';

export const PURGE_INTERVAL_MS = 15 * 60 * 1000;
// An expired link is kept a day, so opening it says "expired" rather than "invalid".
export const EXPIRED_LINK_KEPT_MS = 24 * 60 * 60 * 1000;
// A counter whose window started longer ago than this is reset by its next hit anyway: deleting it is the same.
const LONGEST_WINDOW_MS = Math.max(ADDRESS_LIMIT.windowMs, ADDRESS_SOURCE_LIMIT.windowMs, IP_LIMIT.windowMs);

/** Stored Idempotency-Key answers one statement deletes at most (one may be a bulk answer of a megabyte). */
export const IDEMPOTENCY_KEYS_PER_BATCH = 500;

export type Purged = {
  loginTokens: number;
  rateLimitCounters: number;
  sessions: number;
  ceremonies: number;
  idempotencyKeys: number;
};

/** Deletes the stored answers older than `before`, a batch per statement; two instances skip each other's rows. */
async function purgeIdempotencyKeys(em: Em, before: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { affectedRows } = await em.execute<QueryResult>(
      `delete from idempotency_key where (scope, key_hash) in (
        select scope, key_hash from idempotency_key where created_at < ? order by created_at limit ? for update skip locked)`,
      [before, IDEMPOTENCY_KEYS_PER_BATCH],
      'run',
    );
    deleted += affectedRows;
    if (affectedRows < IDEMPOTENCY_KEYS_PER_BATCH) return deleted;
  }
}

export async function purgeExpired(em: Em, now = new Date()): Promise<Purged> {
  const loginTokens = await em.nativeDelete(LoginToken, {
    expiresAt: { $lt: new Date(now.getTime() - EXPIRED_LINK_KEPT_MS) },
  });
  const rateLimitCounters = await em.nativeDelete(RateLimitCounter, {
    windowStart: { $lte: new Date(now.getTime() - LONGEST_WINDOW_MS) },
  });
  // The same rules as findSession, which deletes such a session when it is next used.
  const sessions = await em.nativeDelete(Session, {
    $or: [{ expiresAt: { $lte: now } }, { lastSeenAt: { $lt: new Date(now.getTime() - IDLE_TIMEOUT_MS) } }],
  });
  // An expired challenge or sign-in in flight is refused when used; deleting it is the same.
  const ceremonies =
    (await em.nativeDelete(WebauthnChallenge, { expiresAt: { $lte: now } })) +
    (await em.nativeDelete(SsoLogin, { expiresAt: { $lte: now } }));
  const idempotencyKeys = await purgeIdempotencyKeys(em, new Date(now.getTime() - IDEMPOTENCY_KEPT_MS));
  return { loginTokens, rateLimitCounters, sessions, ceremonies, idempotencyKeys };
}

export type Purger = {
  /** Stops the timer and waits for a run in progress (before the database is closed). */
  stop: () => Promise<void>;
};

export function startPurging(orm: Orm, log: Logger, intervalMs = PURGE_INTERVAL_MS): Purger {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return; // a slow run (busy database) is not stacked on
    running = purgeExpired(orm.em.fork())
      .then(
        (purged) => {
          if (Object.values(purged).some((n) => n > 0)) log.info({ purged }, 'expired rows purged');
        },
        // A database blip is no reason to stop: the next interval tries again.
        (err) => log.warn({ err }, 'purging expired rows failed'),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref(); // never what keeps the process alive
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
