import { beforeAll, describe, expect, it } from 'vitest';
import {
  createSession,
  findSession,
  IDLE_TIMEOUT_MS,
  ABSOLUTE_TIMEOUT_MS,
  readSessionCookie,
  sessionCookie,
  cookieName,
} from '#server/auth/sessions.ts';
import { hit } from '#server/auth/rate-limit.ts';
import { Session, User } from '#server/db/entities.ts';
import { migrate } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const db = useFreshOrm();
let annaId: number;

beforeAll(async () => {
  await migrate(db.orm);
  await seedDemo(db.orm.em.fork());
  annaId = (await db.orm.em.fork().findOneOrFail(User, { email: 'anna@demo.test' })).id;
});

describe('sessions', () => {
  it('stores only a hash of the random id, and finds the session by the cookie value', async () => {
    const em = db.orm.em.fork();
    const raw = await createSession(em, annaId);
    expect(raw.length).toBeGreaterThanOrEqual(43); // 256 bits
    expect(await em.count(Session, { id: raw })).toBe(0);
    const s = await findSession(db.orm.em.fork(), raw);
    expect(s).toMatchObject({ userId: annaId, email: 'anna@demo.test', isSuperAdmin: false, actingCompanyId: null });
  });

  it('ends after 7 idle days and after 30 days in all', async () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const idle = await createSession(db.orm.em.fork(), annaId, { now: start });
    expect(
      await findSession(db.orm.em.fork(), idle, new Date(start.getTime() + IDLE_TIMEOUT_MS - 60_000)),
    ).not.toBeNull();
    // That look-up counted as activity; 7 days of silence after it ends the session.
    expect(await findSession(db.orm.em.fork(), idle, new Date(start.getTime() + 2 * IDLE_TIMEOUT_MS))).toBeNull();

    const busy = await createSession(db.orm.em.fork(), annaId, { now: start });
    let t = start.getTime();
    while (t + 6 * 24 * 3600_000 < start.getTime() + ABSOLUTE_TIMEOUT_MS) {
      t += 6 * 24 * 3600_000;
      expect(await findSession(db.orm.em.fork(), busy, new Date(t))).not.toBeNull();
    }
    expect(
      await findSession(db.orm.em.fork(), busy, new Date(start.getTime() + ABSOLUTE_TIMEOUT_MS + 1000)),
    ).toBeNull();
  });

  it('sets cookie attributes, with Secure and the __Host- prefix on https', () => {
    const plain = sessionCookie('abc', false);
    expect(plain).toMatch(/^sim_session=abc; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const secure = sessionCookie('abc', true);
    expect(secure.startsWith('__Host-sim_session=abc; Path=/; HttpOnly; SameSite=Lax')).toBe(true);
    expect(secure).toContain('; Secure');
    expect(cookieName(true)).toBe('__Host-sim_session');
    expect(readSessionCookie('a=b; __Host-sim_session=' + 'x'.repeat(43), true)).toBe('x'.repeat(43));
    expect(readSessionCookie('sim_session=<script>', false)).toBeNull();
  });
});

describe('rate limit counters', () => {
  it('count per key within the window and start again after it', async () => {
    const em = db.orm.em.fork();
    const limit = { max: 3, windowMs: 60_000 };
    const t0 = new Date('2026-02-01T10:00:00Z');
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hit(em, 'k1', limit, new Date(t0.getTime() + i * 1000)));
    expect(results).toEqual([true, true, true, false, false]);
    expect(await hit(em, 'k2', limit, t0)).toBe(true);
    expect(await hit(em, 'k1', limit, new Date(t0.getTime() + 61_000))).toBe(true);
  });

  it('is exact under concurrent hits', async () => {
    const limit = { max: 10, windowMs: 60_000 };
    const now = new Date();
    const results = await Promise.all(Array.from({ length: 25 }, () => hit(db.orm.em.fork(), 'burst', limit, now)));
    expect(results.filter(Boolean)).toHaveLength(10);
  });
});
