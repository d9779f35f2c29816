// The regular purge of expired login links, finished rate-limit windows, expired or idle sessions and unfinished
// passkey and single sign-on ceremonies.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hit } from '#server/auth/rate-limit.ts';
import { createSession, findSession, IDLE_TIMEOUT_MS } from '#server/auth/sessions.ts';
import { LoginToken, RateLimitCounter, Session, SsoLogin, User, WebauthnChallenge } from '#server/db/entities.ts';
import { EXPIRED_LINK_KEPT_MS, purgeExpired, startPurging } from '#server/maintenance/purge.ts';
import type { Services } from '#server/services.ts';
import { startServices } from '#tests/helpers/caller.ts';

let services: Services;
let stop: () => Promise<void>;
let annaId: number;
let companyId: number;

beforeAll(async () => {
  ({ services, stop } = await startServices());
  const anna = await services.orm.em.fork().findOneOrFail(User, { email: 'anna@demo.test' });
  annaId = anna.id;
  companyId = anna.company.id;
});
afterAll(() => stop?.());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Rows of every kind, dead and alive, under a fresh tag; returns the raw ids of the sessions that must live. */
async function rowsOfEveryKind(tag: string) {
  const em = services.orm.em.fork();
  const now = Date.now();
  const token = (name: string, expiresAt: number, usedAt: number | null = null) =>
    em.create(LoginToken, {
      tokenHash: randomBytes(32).toString('hex'),
      email: `${tag}-${name}@demo.test`,
      expiresAt: new Date(expiresAt),
      usedAt: usedAt === null ? null : new Date(usedAt),
    });
  token('dead', now - EXPIRED_LINK_KEPT_MS - MINUTE);
  token('dead-used', now - 2 * DAY, now - 2 * DAY - MINUTE);
  token('recently-expired', now - MINUTE);
  token('live', now + 10 * MINUTE);
  token('live-used', now + 10 * MINUTE, now);
  await em.flush();
  const limit = { max: 5, windowMs: 15 * MINUTE };
  await hit(em, `${tag}:dead`, limit, new Date(now - 16 * MINUTE));
  await hit(em, `${tag}:long-dead`, limit, new Date(now - 3 * DAY));
  await hit(em, `${tag}:live`, limit, new Date(now - MINUTE));
  // Expired (30 days in all) and idle (7 days unseen) sessions die; one seen 6 days ago lives.
  await createSession(em, annaId, { now: new Date(now - 31 * DAY) });
  await createSession(em, annaId, { now: new Date(now - IDLE_TIMEOUT_MS - MINUTE) });
  const live = [await createSession(em, annaId), await createSession(em, annaId, { now: new Date(now - 6 * DAY) })];
  // Ceremonies never finished: a passkey challenge and a single sign-on login, one expired and one live each.
  const binding = (name: string) => `${tag}-${name}`.padEnd(64, '0');
  for (const [name, expiresAt] of [
    ['dead', now - MINUTE],
    ['live', now + 4 * MINUTE],
  ] as const) {
    em.create(WebauthnChallenge, {
      challenge: randomBytes(32).toString('base64url'),
      purpose: 'signIn',
      binding: binding(name),
      expiresAt: new Date(expiresAt),
    });
    em.create(SsoLogin, {
      stateHash: randomBytes(32).toString('hex'),
      company: companyId,
      binding: binding(name),
      codeVerifier: 'v'.repeat(43),
      nonce: 'n'.repeat(43),
      expiresAt: new Date(expiresAt),
    });
  }
  await em.flush();
  return live;
}

async function counts(tag: string) {
  const em = services.orm.em.fork();
  return {
    loginTokens: (await em.find(LoginToken, { email: { $like: `${tag}-%` } }, { orderBy: { id: 'asc' } })).map((t) =>
      t.email.slice(tag.length + 1),
    ),
    rateLimitCounters: (
      await em.find(RateLimitCounter, { key: { $like: `${tag}:%` } }, { orderBy: { key: 'asc' } })
    ).map((c) => c.key.slice(tag.length + 1)),
    sessions: await em.count(Session, { user: annaId }),
    ceremonies: [
      ...(await em.find(WebauthnChallenge, { binding: { $like: `${tag}-%` } })).map(
        (c) => `challenge ${c.binding.split('-')[1]!.replace(/0+$/, '')}`,
      ),
      ...(await em.find(SsoLogin, { binding: { $like: `${tag}-%` } })).map(
        (c) => `sso ${c.binding.split('-')[1]!.replace(/0+$/, '')}`,
      ),
    ].sort(),
  };
}

describe('purge of expired rows', () => {
  it('deletes dead login links, rate-limit counters and sessions, and keeps the live ones', async () => {
    await services.orm.em.fork().nativeDelete(Session, {});
    const live = await rowsOfEveryKind('one');
    expect(await counts('one')).toEqual({
      loginTokens: [
        'dead@demo.test',
        'dead-used@demo.test',
        'recently-expired@demo.test',
        'live@demo.test',
        'live-used@demo.test',
      ],
      rateLimitCounters: ['dead', 'live', 'long-dead'],
      sessions: 4,
      ceremonies: ['challenge dead', 'challenge live', 'sso dead', 'sso live'],
    });
    expect(await purgeExpired(services.orm.em.fork())).toEqual({
      loginTokens: 2,
      rateLimitCounters: 2,
      sessions: 2,
      ceremonies: 2,
      idempotencyKeys: 0,
    });
    expect(await counts('one')).toEqual({
      loginTokens: ['recently-expired@demo.test', 'live@demo.test', 'live-used@demo.test'],
      rateLimitCounters: ['live'],
      sessions: 2,
      ceremonies: ['challenge live', 'sso live'],
    });
    for (const raw of live) expect(await findSession(services.orm.em.fork(), raw)).toMatchObject({ userId: annaId });
    // Nothing more to do the second time.
    expect(await purgeExpired(services.orm.em.fork())).toEqual({
      loginTokens: 0,
      rateLimitCounters: 0,
      sessions: 0,
      ceremonies: 0,
      idempotencyKeys: 0,
    });
  });

  it('is safe when two instances purge at once: the work is shared, nothing fails, the result is the same', async () => {
    await services.orm.em.fork().nativeDelete(Session, {});
    await rowsOfEveryKind('two');
    const [a, b] = await Promise.all([purgeExpired(services.orm.em.fork()), purgeExpired(services.orm.em.fork())]);
    expect(a.loginTokens + b.loginTokens).toBe(2);
    expect(a.rateLimitCounters + b.rateLimitCounters).toBe(2);
    expect(a.sessions + b.sessions).toBe(2);
    expect(a.ceremonies + b.ceremonies).toBe(2);
    expect(await counts('two')).toMatchObject({ rateLimitCounters: ['live'], sessions: 2 });
  });

  it('runs at its interval once started, and stops', async () => {
    await services.orm.em.fork().nativeDelete(Session, {});
    await rowsOfEveryKind('timer');
    const purger = startPurging(services.orm, services.log, 20);
    try {
      await expect.poll(async () => (await counts('timer')).rateLimitCounters, { timeout: 20_000 }).toEqual(['live']);
      expect(await counts('timer')).toMatchObject({
        loginTokens: ['recently-expired@demo.test', 'live@demo.test', 'live-used@demo.test'],
        sessions: 2,
      });
    } finally {
      await purger.stop();
    }
  });
});
