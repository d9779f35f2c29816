// Safe retries of the REST door's writes with the `Idempotency-Key` header (Stripe's convention; docs/api.md
// "Retries", decision 028). The first request with a key does the work and stores its answer in the same
// transaction, so a crash leaves neither; a repeat with the same request gets that answer again, one with
// another request 422, and one arriving while the first still runs waits for it, polling, without a connection.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request } from 'express';
import { errorBody, Invalid } from '#domain/errors.ts';
import { tIdempotency } from '#domain/texts/idempotency.ts';
import { IDEMPOTENCY_KEPT_MS } from '#server/db/entities/idempotency.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import type { Em } from '#server/db/orm.ts';
import type { Context } from '#server/trpc/context.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1 to 255 visible ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How often (on average) a request whose key is busy looks again, and for how long before it gives up with 409. */
export const POLL_MS = 150;
export const WAIT_MS = 30_000;
/**
 * A larger answer is not stored (its work still commits): the procedures' answers are bounded (a bulk answer of
 * 10,000 rows is about a megabyte), so only a new unbounded answer would get here, and it should not fill the table.
 */
export const MAX_STORED_ANSWER_BYTES = 8 * 1024 * 1024;

/** What the door sends: a first answer, a replayed one, or a refusal of the key itself. */
export type Answer = {
  status: number;
  /** The JSON text of the body. */
  body: string;
  link: string | null;
  headers: Record<string, string>;
  replayed: boolean;
};

/** The Idempotency-Key of a request to an idempotent procedure (its meta): null without one; 400 when malformed. */
export function idempotencyKeyOf(req: Request): string | null {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return null;
  if (!KEY_PATTERN.test(key)) throw Invalid.field(IDEMPOTENCY_HEADER, tIdempotency.badKey);
  return key;
}

/** Whose key it is: an API key, or a session's user in the company it acts for. Never shared by two callers. */
export function scopeOf(ctx: Pick<Context, 'apiKey' | 'session'>): string | null {
  if (ctx.apiKey) return `apiKey:${ctx.apiKey.id}`;
  if (ctx.session) return `user:${ctx.session.userId}@${ctx.session.companyId}`;
  return null;
}

const sha256 = (...parts: Array<string | Buffer>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest();
};

/** The advisory lock's name of a caller's key (hashed to the lock's 64 bits by PostgreSQL). */
export const lockNameOf = (scope: string, key: string) => `idempotency ${scope} ${sha256(key).toString('hex')}`;

/** The request a key stands for: method, path and the raw body's SHA-256. */
export const requestHashOf = (req: Request) =>
  sha256(req.method, req.baseUrl + req.path, sha256(req.rawBody ?? Buffer.alloc(0))).toString('hex');

// The stored answer is encrypted with a key only the client knows (derived from its Idempotency-Key): an answer
// may carry a secret shown only once (a new API key, a webhook's signing secret), which must not lie readable in
// the database for a day.
function seal(secret: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}
function open(secret: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * An entity manager whose forks stay in its transaction: a service that forks the request's manager (e.g. the
 * bulk runs' trail row) then writes inside the one transaction too. Outside it such a write would commit on its
 * own, and on PGlite (one connection, held by the transaction) it would wait for ever.
 */
function forksInside(em: Em): Em {
  const fork = em.fork.bind(em);
  em.fork = (options) => fork({ keepTransactionContext: true, ...options });
  return em;
}

const LOCK_SQL = 'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked';

type StoredAnswer = Omit<Answer, 'headers' | 'replayed'>;
type Stored = { request_hash: string; status: number; body: string; link: string | null };

const refusal = (status: number, message: string, headers: Record<string, string> = {}): Answer => ({
  status,
  body: JSON.stringify(errorBody(message)),
  link: null,
  headers,
  replayed: false,
});

/**
 * Runs `work` once per (caller, key): in one transaction that takes the key's advisory lock, looks for a stored
 * answer (replayed only after `check`, the procedure's own checks, passed again), runs the procedure with `ctx.em`
 * inside it (its own transactions become savepoints) and stores the answer before the commit. When `work` throws,
 * `keep` says which refusal is stored as the answer (the procedure's 4xx); any other (401, 403, 429, 5xx) rolls
 * everything back and is thrown, so a retry can do the work later.
 * A request whose key is locked by another waits: it looks again every 100 to 200 ms with one statement (no
 * connection held in between) and tries once the lock is free, for at most WAIT_MS (then 409 with Retry-After).
 * On PGlite the lock does not exclude (one session) but need not: its one connection runs one transaction at a
 * time, so the second request's transaction starts after the first committed and finds its answer.
 */
export async function runIdempotent(
  ctx: Context,
  req: Request,
  key: string,
  scope: string,
  work: () => Promise<StoredAnswer>,
  keep: (err: unknown) => StoredAnswer | null,
  check: () => Promise<void>,
): Promise<Answer> {
  const keyHash = sha256(key).toString('hex');
  const secret = sha256('answer', scope, key);
  const requestHash = requestHashOf(req);
  const lockName = lockNameOf(scope, key);
  const em = ctx.em;
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      // Spread over 100 to 200 ms, so that many waiting requests do not knock at once.
      await sleep(POLL_MS / 2 + Math.random() * POLL_MS);
      if (Date.now() >= deadline || ctx.signal?.aborted)
        return refusal(409, tIdempotency.stillRunning, { 'Retry-After': '1' });
      // One statement outside a transaction (the lock is taken and let go at once) tells whether it is free; a
      // refusal of a busy pool only means looking again later: this request is waiting anyway.
      let free = false;
      try {
        const [row] = await em.execute<{ locked: boolean }[]>(LOCK_SQL, [lockName]);
        free = !!row?.locked;
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
      }
      if (!free) continue;
    }
    const toastMode = ctx.toastMode;
    let answer: Answer | 'busy';
    try {
      // Toasts wait for the commit: a rolled-back request told the user nothing.
      ctx.toastMode = 'held';
      answer = await em.transactional(async (tx) => {
        const [lock] = await tx.execute<{ locked: boolean }[]>(LOCK_SQL, [lockName]);
        if (!lock?.locked) return 'busy';
        const [stored] = await tx.execute<Stored[]>(
          'select request_hash, status, body, link from idempotency_key where scope = ? and key_hash = ? and created_at > ?',
          [scope, keyHash, new Date(Date.now() - IDEMPOTENCY_KEPT_MS)],
        );
        if (stored) {
          // The checks of the first request, passed again before anything of its answer is said: a user demoted
          // or signed in without a recent step-up, or a key revoked or made read-only, gets what the procedure
          // would answer now (401, 403), never the first answer (it may carry a new API key's secret). A refusal
          // that is stored (a 400 of the body's schema: the first request had it too) leaves the replay to say it.
          ctx.em = forksInside(tx);
          try {
            const refused = await check().then(
              () => null,
              (err: unknown) => ({ err }),
            );
            if (refused && !keep(refused.err)) throw refused.err;
          } finally {
            ctx.em = em;
          }
          if (stored.request_hash !== requestHash) return refusal(422, tIdempotency.otherRequest);
          const body = open(secret, stored.body);
          return { status: stored.status, body, link: stored.link, headers: {}, replayed: true };
        }
        let first: StoredAnswer;
        try {
          // A savepoint: a refusal rolls back what the procedure did, and its answer is stored all the same.
          first = await tx.transactional(async (inner) => {
            ctx.em = forksInside(inner);
            try {
              return await work();
            } finally {
              ctx.em = em;
            }
          });
        } catch (err) {
          const kept = keep(err);
          if (!kept) throw err;
          first = kept;
        }
        if (Buffer.byteLength(first.body) <= MAX_STORED_ANSWER_BYTES)
          await tx.execute(
            `insert into idempotency_key (scope, key_hash, request_hash, status, body, link, created_at)
             values (?, ?, ?, ?, ?, ?, ?)
             on conflict (scope, key_hash) do update set request_hash = excluded.request_hash, status = excluded.status,
               body = excluded.body, link = excluded.link, created_at = excluded.created_at`,
            [scope, keyHash, requestHash, first.status, seal(secret, first.body), first.link, new Date()],
          );
        else
          ctx.services.log.warn({ reqId: req.id, bytes: Buffer.byteLength(first.body) }, 'answer too large to store');
        return { ...first, headers: {}, replayed: false };
      });
    } catch (err) {
      ctx.toasts.length = 0;
      throw err;
    } finally {
      ctx.toastMode = toastMode;
    }
    if (answer !== 'busy') {
      if (answer.replayed || answer.status >= 300) ctx.toasts.length = 0;
      else await ctx.showToasts({ flash: false });
      return answer;
    }
  }
}
