// Safe retries of the REST door's writes with the `Idempotency-Key` header (Stripe's convention; docs/api.md
// "Retries", decisions 028 and 032), as the procedure's own middleware: a procedure that declares
// `idempotent: true` in its meta uses `idempotent` after its role checks and before its input. The door only
// reads the header and the request's hash into the context (ctx.idempotency); here the first call with a key does
// the work and stores its answer in the same transaction, so a crash leaves neither; a repeat of the same request
// gets that answer again, one with another request 422, and one arriving while the first still runs waits for it,
// polling, without a connection.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorBody } from '#domain/errors.ts';
import { tIdempotency } from '#domain/texts/idempotency.ts';
import { IDEMPOTENCY_KEPT_MS } from '#server/db/entities/idempotency.ts';
import { isDatabaseUnavailable } from '#server/db/errors.ts';
import type { HubEvent } from '#server/events/hub.ts';
import type { Context, IdempotentCall } from './context.ts';
import { httpError } from './errors.ts';

/** How often (on average) a request whose key is busy looks again, and for how long before it gives up with 409. */
export const POLL_MS = 150;
export const WAIT_MS = 30_000;
/**
 * A larger answer is not stored (its work still commits): the procedures' answers are bounded (a bulk answer of
 * 10,000 rows is about a megabyte), so only a new unbounded answer would get here, and it should not fill the table.
 */
export const MAX_STORED_ANSWER_BYTES = 8 * 1024 * 1024;

export type { IdempotentCall };

/**
 * An answer the door sends as it is, instead of running the procedure: a first answer replayed (`replayed`), or
 * the key's own refusal (422 another request, 409 still running). Thrown by the middleware, as the procedure's
 * result is its output and a replay has none of its own.
 */
export class IdempotentAnswer extends Error {
  constructor(
    readonly status: number,
    /** The JSON text of the body. */
    readonly body: string,
    readonly link: string | null,
    readonly replayed: boolean,
    readonly headers: Record<string, string> = {},
  ) {
    super('idempotent answer');
  }
}

/** The IdempotentAnswer a call ended with (tRPC wraps what a middleware throws), or null. */
export function idempotentAnswerIn(err: unknown): IdempotentAnswer | null {
  if (err instanceof IdempotentAnswer) return err;
  const cause = err instanceof Error ? err.cause : undefined;
  return cause instanceof IdempotentAnswer ? cause : null;
}

/** Whose key it is: an API key, a network key, or a session's user in the company it acts for. Never shared by two callers. */
export function scopeOf(ctx: Pick<Context, 'apiKey' | 'networkKey' | 'session'>): string | null {
  if (ctx.apiKey) return `apiKey:${ctx.apiKey.id}`;
  if (ctx.networkKey) return `networkKey:${ctx.networkKey.id}`;
  if (ctx.session) return `user:${ctx.session.userId}@${ctx.session.companyId}`;
  return null;
}

export const sha256 = (...parts: Array<string | Buffer>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest();
};

/** The advisory lock's name of a caller's key (hashed to the lock's 64 bits by PostgreSQL). */
export const lockNameOf = (scope: string, key: string) => `idempotency ${scope} ${sha256(key).toString('hex')}`;

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

const LOCK_SQL = 'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked';

type Stored = { status: number; body: string; link: string | null };
type Toasted = Parameters<Context['notify']>;
/** A procedure's result as its middleware sees it (tRPC's MiddlewareResult, whatever its context type). */
type Result = { ok: true; data: unknown } | { ok: false; error: unknown };

/** The failed result of the work, thrown out of a transaction (or a savepoint) so that it rolls back. */
class Failed extends Error {
  constructor(readonly result: Result) {
    super('failed');
  }
}

/**
 * A procedure's refusal kept as the answer of its key: one the same request would get again (400, 404, 409,
 * 422 ...). Never one a retry may cure: 401, 403 (a role, a step-up), 408, 429, a client gone, 5xx.
 */
function storedRefusal(ctx: Context, error: unknown): Stored | null {
  if (ctx.signal?.aborted) return null;
  const answer = httpError(error, ctx.requestId);
  if (answer.status < 400 || answer.status >= 500 || [401, 403, 408, 429].includes(answer.status)) return null;
  return { status: answer.status, body: JSON.stringify(answer.body), link: null };
}

const refusal = (status: number, message: string, headers: Record<string, string> = {}) =>
  new IdempotentAnswer(status, JSON.stringify(errorBody(message)), null, false, headers);

/**
 * Runs the rest of the procedure (`next`: its input, its work, its output) once per (caller, key), in one
 * transaction that takes the key's advisory lock, looks for a stored answer and runs the work with `ctx.em` bound
 * to it (a service's own transaction is a savepoint in it; a service's fork joins it with keepTransactionContext),
 * then stores the answer before the commit. The role, key-scope and step-up checks ran before: a replay goes only
 * to a caller who passes now what the first request passed then. A stored answer is thrown as an
 * IdempotentAnswer (replayed), the key's refusals too; a refusal of the work that the same request would get again
 * is stored and answered as the procedure's own; any other (401, 403, 429, 5xx) rolls everything back, so a retry
 * can do the work later. Toasts wait for the commit: a rolled-back request told the user nothing.
 * A request whose key is locked by another waits: it looks again every 100 to 200 ms with one statement (no
 * connection held in between) and tries once the lock is free, for at most WAIT_MS (then 409 with Retry-After).
 * On PGlite the lock does not exclude (one session) but need not: its one connection runs one transaction at a
 * time, so the second request's transaction starts after the first committed and finds its answer.
 */
export async function runIdempotent<R extends Result>(
  ctx: Context,
  call: IdempotentCall,
  next: (over: Pick<Context, 'em' | 'notify' | 'announce'>) => Promise<R>,
): Promise<R> {
  const scope = scopeOf(ctx);
  if (!scope) return next({ em: ctx.em, notify: ctx.notify, announce: ctx.announce });
  const keyHash = sha256(call.key).toString('hex');
  const secret = sha256('answer', scope, call.key);
  const lockName = lockNameOf(scope, call.key);
  const em = ctx.em;
  const deadline = Date.now() + WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      // Spread over 100 to 200 ms, so that many waiting requests do not knock at once.
      await sleep(POLL_MS / 2 + Math.random() * POLL_MS);
      if (Date.now() >= deadline || ctx.signal?.aborted)
        throw refusal(409, tIdempotency.stillRunning, { 'Retry-After': '1' });
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
    const toasts: Toasted[] = [];
    const held: Context['notify'] = async (...args) => void toasts.push(args);
    const events: HubEvent[] = [];
    const heldEvent: Context['announce'] = async (event) => void events.push(event);
    let result: R | 'busy';
    try {
      result = await em.transactional(async (tx) => {
        const [lock] = await tx.execute<{ locked: boolean }[]>(LOCK_SQL, [lockName]);
        if (!lock?.locked) return 'busy';
        const [stored] = await tx.execute<Array<Stored & { request_hash: string }>>(
          'select request_hash, status, body, link from idempotency_key where scope = ? and key_hash = ? and created_at > ?',
          [scope, keyHash, new Date(Date.now() - IDEMPOTENCY_KEPT_MS)],
        );
        if (stored) {
          if (stored.request_hash !== call.requestHash) throw refusal(422, tIdempotency.otherRequest);
          throw new IdempotentAnswer(stored.status, open(secret, stored.body), stored.link, true);
        }
        let outcome: R;
        let answer: Stored;
        try {
          // A savepoint: a refusal rolls back what the procedure did, and its answer is stored all the same.
          outcome = await tx.transactional(async (inner) => {
            const r = await next({ em: inner, notify: held, announce: heldEvent });
            if (!r.ok) throw new Failed(r);
            return r;
          });
          const data = outcome.ok ? outcome.data : undefined;
          answer = { status: 200, body: JSON.stringify(data) ?? '', link: ctx.resHeaders.get('link') };
        } catch (err) {
          if (!(err instanceof Failed)) throw err;
          const kept = storedRefusal(ctx, err.result.ok ? null : err.result.error);
          if (!kept) throw err;
          outcome = err.result as R;
          answer = kept;
        }
        if (Buffer.byteLength(answer.body) <= MAX_STORED_ANSWER_BYTES)
          await tx.execute(
            `insert into idempotency_key (scope, key_hash, request_hash, status, body, link, created_at)
             values (?, ?, ?, ?, ?, ?, ?)
             on conflict (scope, key_hash) do update set request_hash = excluded.request_hash, status = excluded.status,
               body = excluded.body, link = excluded.link, created_at = excluded.created_at`,
            [scope, keyHash, call.requestHash, answer.status, seal(secret, answer.body), answer.link, new Date()],
          );
        else
          ctx.services.log.warn(
            { reqId: ctx.requestId, bytes: Buffer.byteLength(answer.body) },
            'answer too large to store',
          );
        return outcome;
      });
    } catch (err) {
      // The work's refusal that is not kept: rolled back, and answered as the procedure's own.
      if (err instanceof Failed) return err.result as R;
      throw err;
    }
    if (result === 'busy') continue;
    if (result.ok) for (const toast of toasts) await ctx.notify(...toast);
    if (result.ok) for (const event of events) await ctx.announce(event);
    return result;
  }
}
