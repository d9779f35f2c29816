// Long: the sessions of several users on two instances are set up once for every rule of ending them.
// The sessions a user sees and ends, and a super admin's ending of anyone's sessions and resetting of passkeys,
// through the REST door as a client makes the calls: only one's own sessions, another's id is "not found", ending
// others keeps this one, the super admin's changes need a step-up, every end closes the ended session's event
// stream at once (also on another server instance sharing the database) and leaves a row in the audit trail.
import { beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '#server/auth/sessions.ts';
import { AuditEvent, Company, Passkey, RecoveryCode, Session, User } from '#server/db/entities.ts';
import { needs } from '#tests/helpers/needs.ts';
import { startTestServer } from '#tests/helpers/server.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream } from '#tests/helpers/sse.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type Answer = { status: number; data: Record<string, unknown>; setCookie: string[] };

async function call(method: string, path: string, cookie: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { cookie };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    status: res.status,
    data: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    setCookie: res.headers.getSetCookie(),
  };
}

/** The session row id of a cookie header value. */
const idOf = (cookie: string) => hashSessionId(cookie.slice(cookie.indexOf('=') + 1));
const userId = async (email: string) => (await em().findOneOrFail(User, { email })).id;
const alive = async (cookie: string) => (await call('GET', '/api/sessions', cookie)).status === 200;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Erik Ek', email: 'erik@demo.test', company: demo, role: 'member' });
  e.create(User, { name: 'Lisa Lund', email: 'lisa@demo.test', company: demo, role: 'viewer' });
  await e.flush();
});

type Item = { id: string; browser: string; ip: string | null; method: string; current: boolean; lastSeenAt: string };

describe("a user's own sessions", () => {
  it('lists the live signed-in ones, the most recently active first, with the browser named and this one marked', async () => {
    const here = await portal.server.sessionCookie('erik@demo.test', { userAgent: CHROME_MAC, ip: '198.51.100.7' });
    const older = await portal.server.sessionCookie('erik@demo.test', {
      userAgent: FIREFOX_WIN,
      ip: '203.0.113.9',
      now: minutesAgo(30),
      method: 'link',
    });
    const phone = await portal.server.sessionCookie('erik@demo.test', { userAgent: SAFARI_IPHONE, now: minutesAgo(5) });
    // Not listed: one still signing in, an expired one, another user's.
    await portal.server.sessionCookie('erik@demo.test', { stage: 'passkey', userAgent: FIREFOX_WIN });
    await portal.server.sessionCookie('erik@demo.test', { now: new Date(Date.now() - 31 * 24 * 3600_000) });
    await portal.server.sessionCookie('anna@demo.test', { userAgent: CHROME_MAC });

    const r = await call('GET', '/api/sessions', here);
    expect(r.status).toBe(200);
    const list = r.data.sessions as Item[];
    expect(r.data.more).toBe(false);
    expect(list.map((s) => s.id)).toEqual([idOf(here), idOf(phone), idOf(older)]);
    expect(list.map((s) => s.current)).toEqual([true, false, false]);
    expect(list[0]).toMatchObject({ browser: 'Chrome 131 på macOS', ip: '198.51.100.7', method: 'passkey' });
    expect(list[1]!.browser).toBe('Mobile Safari 18 på iOS 18.1');
    expect(list[2]).toMatchObject({ browser: 'Firefox 133 på Windows 10', ip: '203.0.113.9', method: 'link' });
  });

  it('shows at most 50, the most recently active', async () => {
    const here = await portal.server.sessionCookie('lisa@demo.test');
    for (let i = 1; i <= 55; i++) await portal.server.sessionCookie('lisa@demo.test', { now: minutesAgo(i) });
    const r = await call('GET', '/api/sessions', here);
    const list = r.data.sessions as Item[];
    expect(list).toHaveLength(50);
    expect(r.data.more).toBe(true);
    expect(list[0]!.current).toBe(true);
    const times = list.map((s) => Date.parse(s.lastSeenAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('ends one of its own: that session is signed out and its event stream closes at once', async () => {
    const here = await portal.server.sessionCookie('anna@demo.test');
    const other = await portal.server.sessionCookie('anna@demo.test', { userAgent: FIREFOX_WIN });
    const tab = await openStream(portal.server.url, other);
    await tab.waitFor(/connected/);
    const r = await call('POST', '/api/sessions/end', here, { id: idOf(other) });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ ended: 1, current: false });
    expect(r.setCookie).toEqual([]);
    await expect.poll(() => tab.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
    expect(await alive(other)).toBe(false);
    expect(await alive(here)).toBe(true);
    const row = await em().findOneOrFail(
      AuditEvent,
      { action: 'sessionEnded', targetId: String(await userId('anna@demo.test')) },
      { orderBy: { id: 'desc' }, populate: ['who'] },
    );
    expect(row).toMatchObject({ kind: 'security', targetType: 'User' });
    expect(row.who!.email).toBe('anna@demo.test');
    expect(row.after).toMatchObject({ userName: 'Anna Andersson', browser: 'Firefox 133 på Windows 10', own: true });
  });

  it("answers another user's session id as not found, and leaves that session alone", async () => {
    const anna = await portal.server.sessionCookie('anna@demo.test');
    const erik = await portal.server.sessionCookie('erik@demo.test');
    const before = await em().count(AuditEvent, { action: 'sessionEnded' });
    for (const id of [idOf(erik), 'f'.repeat(64)]) {
      const r = await call('POST', '/api/sessions/end', anna, { id });
      expect(r.status).toBe(404);
      expect(r.data).toEqual({ error: 'Inloggningen finns inte (den kan redan vara utloggad).', issues: [] });
    }
    // Not even by the raw cookie value, nor something that is no id at all.
    expect((await call('POST', '/api/sessions/end', anna, { id: erik.split('=')[1] })).status).toBe(400);
    expect(await alive(erik)).toBe(true);
    expect(await em().count(AuditEvent, { action: 'sessionEnded' })).toBe(before);
  });

  it('ending its own current session logs it out and clears the cookie', async () => {
    const here = await portal.server.sessionCookie('anna@demo.test');
    const r = await call('POST', '/api/sessions/end', here, { id: idOf(here) });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ ended: 1, current: true });
    expect(r.setCookie.join()).toMatch(/sim_session=; .*Max-Age=0/);
    expect(await alive(here)).toBe(false);
  });

  it('ends all its other sessions (also one still signing in) and keeps this one', async () => {
    const here = await portal.server.sessionCookie('ella@demo.test');
    const others = [
      await portal.server.sessionCookie('ella@demo.test'),
      await portal.server.sessionCookie('ella@demo.test', { steppedUp: false }),
    ];
    const pending = await portal.server.sessionCookie('ella@demo.test', { stage: 'passkey' });
    const anna = await portal.server.sessionCookie('anna@demo.test');
    const tabs = await Promise.all(others.map((c) => openStream(portal.server.url, c)));
    for (const tab of tabs) await tab.waitFor(/connected/);
    const r = await call('POST', '/api/sessions/endOthers', here, {});
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ ended: 3 });
    for (const tab of tabs) await expect.poll(() => tab.closed(), { timeout: 5000 }).toBe(true);
    for (const c of others) expect(await alive(c)).toBe(false);
    expect(await em().count(Session, { id: idOf(pending) })).toBe(0);
    expect(await alive(here)).toBe(true);
    expect(await alive(anna)).toBe(true);
    const list = (await call('GET', '/api/sessions', here)).data.sessions as Item[];
    expect(list.map((s) => s.id)).toEqual([idOf(here)]);
  });

  it('is for a signed-in person only: anonymous 401, a session still signing in 401', async () => {
    expect((await call('GET', '/api/sessions', '')).status).toBe(401);
    const pending = await portal.server.sessionCookie('anna@demo.test', { stage: 'passkey' });
    const other = await portal.server.sessionCookie('anna@demo.test');
    expect((await call('GET', '/api/sessions', pending)).status).toBe(401);
    expect((await call('POST', '/api/sessions/endOthers', pending, {})).status).toBe(401);
    expect((await call('POST', '/api/sessions/end', pending, { id: idOf(other) })).status).toBe(401);
    expect(await alive(other)).toBe(true);
  });
});

describe('an API key', () => {
  it('is no person: every sessions path refuses it with 403', async () => {
    const owner = await portal.server.sessionCookie('ella@demo.test');
    const made = await call('POST', '/api/company/apiKeys', owner, { name: 'Inloggningar', scope: 'write' });
    expect(made.status).toBe(200);
    const bearer = { authorization: `Bearer ${made.data.key as string}` };
    const anna = await portal.server.sessionCookie('anna@demo.test');
    for (const [method, path, body] of [
      ['GET', '/api/sessions', undefined],
      ['POST', '/api/sessions/end', { id: idOf(anna) }],
      ['POST', '/api/sessions/endOthers', {}],
      ['GET', `/api/admin/sessions/${await userId('anna@demo.test')}`, undefined],
      ['POST', '/api/admin/sessions/end', { userId: await userId('anna@demo.test'), id: idOf(anna) }],
      ['POST', `/api/admin/resetPasskeys/${await userId('anna@demo.test')}`, {}],
    ] as const) {
      const res = await fetch(portal.server.url + path, {
        method,
        headers: { ...bearer, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await alive(anna)).toBe(true);
  });
});

describe("a super admin and a user's sessions", () => {
  it('lists any user’s sessions with their passkey count; a company user may not', async () => {
    const admin = await portal.server.sessionCookie('admin@demo.test', { steppedUp: false });
    const anna = await portal.server.sessionCookie('anna@demo.test', { userAgent: CHROME_MAC });
    const r = await call('GET', `/api/admin/sessions/${await userId('anna@demo.test')}`, admin);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ userId: await userId('anna@demo.test'), passkeys: 0 });
    const list = r.data.sessions as Item[];
    expect(list.find((s) => s.id === idOf(anna))).toMatchObject({ browser: 'Chrome 131 på macOS', current: false });
    expect((await call('GET', `/api/admin/sessions/${await userId('erik@demo.test')}`, anna)).status).toBe(403);
    expect((await call('GET', '/api/admin/sessions/999999', admin)).status).toBe(404);
  });

  it('needs a step-up to end one, and changes nothing without it', async () => {
    const annaId = await userId('anna@demo.test');
    const anna = await portal.server.sessionCookie('anna@demo.test');
    const stale = await portal.server.sessionCookie('admin@demo.test', { steppedUp: false });
    const before = await em().count(AuditEvent, { action: 'sessionEnded' });
    const r = await call('POST', '/api/admin/sessions/end', stale, { userId: annaId, id: idOf(anna) });
    expect(r.status).toBe(403);
    expect(r.data).toMatchObject({ error: expect.stringMatching(/Bekräfta/), stepUp: true });
    expect(await alive(anna)).toBe(true);
    expect(await em().count(AuditEvent, { action: 'sessionEnded' })).toBe(before);
    // A company user is refused whatever their step-up.
    const erik = await portal.server.sessionCookie('ella@demo.test');
    expect((await call('POST', '/api/admin/sessions/end', erik, { userId: annaId, id: idOf(anna) })).status).toBe(403);
    expect(await alive(anna)).toBe(true);
  });

  it('ends any user’s session when stepped up: its stream closes at once, the trail says who did it', async () => {
    const annaId = await userId('anna@demo.test');
    const anna = await portal.server.sessionCookie('anna@demo.test', { userAgent: SAFARI_IPHONE });
    const erik = await portal.server.sessionCookie('erik@demo.test');
    const admin = await portal.server.sessionCookie('admin@demo.test');
    const tab = await openStream(portal.server.url, anna);
    await tab.waitFor(/connected/);
    // Another user's session under Anna's id: not found.
    expect((await call('POST', '/api/admin/sessions/end', admin, { userId: annaId, id: idOf(erik) })).status).toBe(404);
    expect(await alive(erik)).toBe(true);
    const r = await call('POST', '/api/admin/sessions/end', admin, { userId: annaId, id: idOf(anna) });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ ended: 1, current: false });
    await expect.poll(() => tab.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
    expect(await alive(anna)).toBe(false);
    const row = await em().findOneOrFail(
      AuditEvent,
      { action: 'sessionEnded', targetId: String(annaId) },
      { orderBy: { id: 'desc' }, populate: ['who', 'company'] },
    );
    expect(row.who!.email).toBe('admin@demo.test');
    expect(row.company!.id).toBe((await em().findOneOrFail(User, { id: annaId })).company.id);
    expect(row.after).toMatchObject({
      userName: 'Anna Andersson',
      browser: 'Mobile Safari 18 på iOS 18.1',
      own: false,
    });
  });

  it("resets a user's passkeys: needs a step-up; then removes passkeys and codes and ends every session", async () => {
    const e = em();
    const erik = await e.findOneOrFail(User, { email: 'erik@demo.test' });
    for (const n of [1, 2])
      e.create(Passkey, {
        user: erik,
        credentialId: `cred-erik-${n}`,
        publicKey: 'pk',
        counter: 0,
        transports: [],
        deviceType: 'multiDevice',
        backedUp: true,
        name: `Nyckel ${n}`,
      });
    e.create(RecoveryCode, { user: erik, codeHash: 'a'.repeat(64) });
    await e.flush();
    const sessions = [
      await portal.server.sessionCookie('erik@demo.test'),
      await portal.server.sessionCookie('erik@demo.test'),
    ];
    const tab = await openStream(portal.server.url, sessions[0]!);
    await tab.waitFor(/connected/);
    const anna = await portal.server.sessionCookie('anna@demo.test');

    const stale = await portal.server.sessionCookie('admin@demo.test', { steppedUp: false });
    const refused = await call('POST', `/api/admin/resetPasskeys/${erik.id}`, stale, {});
    expect(refused.status).toBe(403);
    expect(refused.data.stepUp).toBe(true);
    expect(await em().count(Passkey, { user: erik.id })).toBe(2);
    expect(await alive(sessions[0]!)).toBe(true);
    expect((await call('POST', `/api/admin/resetPasskeys/${erik.id}`, anna, {})).status).toBe(403);

    const admin = await portal.server.sessionCookie('admin@demo.test');
    expect((await call('GET', `/api/admin/sessions/${erik.id}`, admin)).data.passkeys).toBe(2);
    const r = await call('POST', `/api/admin/resetPasskeys/${erik.id}`, admin, {});
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ passkeys: 2, recoveryCodes: 1, current: false });
    expect(r.data.ended).toBeGreaterThanOrEqual(2);
    await expect.poll(() => tab.closed(), { timeout: 5000 }).toBe(true);
    for (const c of sessions) expect(await alive(c)).toBe(false);
    expect(await em().count(Passkey, { user: erik.id })).toBe(0);
    expect(await em().count(RecoveryCode, { user: erik.id })).toBe(0);
    expect(await em().count(Session, { user: erik.id })).toBe(0);
    expect(await alive(anna)).toBe(true);
    const row = await em().findOneOrFail(
      AuditEvent,
      { action: 'passkeysReset', targetId: String(erik.id) },
      { populate: ['who'] },
    );
    expect(row.who!.email).toBe('admin@demo.test');
    expect(row.after).toMatchObject({ userName: erik.name, passkeys: 2, recoveryCodes: 1 });
    expect((await call('POST', '/api/admin/resetPasskeys/999999', admin, {})).status).toBe(404);
    // Not one's own: that would sign the super admin out and leave the account without its passkey.
    const own = await call('POST', `/api/admin/resetPasskeys/${await userId('admin@demo.test')}`, admin, {});
    expect(own.status).toBe(403);
    expect(own.data.error).toBe('Dina egna inloggningsnycklar hanterar du på sidan Säkerhet.');
    expect(await alive(admin)).toBe(true);
  });

  needs(it, 'PostgreSQL')(
    "closes the ended session's event stream held by another server instance on the same database",
    async () => {
      const second = await startTestServer({ db: portal.server.db });
      try {
        const annaId = await userId('anna@demo.test');
        const anna = await portal.server.sessionCookie('anna@demo.test');
        const mine = await portal.server.sessionCookie('anna@demo.test');
        const tab = await openStream(second.url, anna);
        await tab.waitFor(/connected/);
        expect((await call('POST', '/api/sessions/end', mine, { id: idOf(anna) })).status).toBe(200);
        await expect.poll(() => tab.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
        const again = await portal.server.sessionCookie('anna@demo.test');
        const tab2 = await openStream(second.url, again);
        await tab2.waitFor(/connected/);
        const admin = await portal.server.sessionCookie('admin@demo.test');
        const r = await call('POST', '/api/admin/sessions/end', admin, { userId: annaId, id: idOf(again) });
        expect(r.status).toBe(200);
        await expect.poll(() => tab2.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
      } finally {
        await second.stop();
      }
    },
  );
});
