// A replayed Idempotency-Key answer passes the checks its first request passed (issue 37, finding 5; decision
// 028): an owner demoted to viewer, a session without a recent step-up, an API key made read-only or revoked
// repeat a request they once made with the key and get what the procedure answers them now (403, 401), never the
// stored answer (a new API key's secret). Stepped up again, the same caller gets the stored answer, and the work
// was done once. Idempotency-Key is a REST header only (the tRPC door has none), so the REST door is the one tried.
import { beforeAll, describe, expect, it } from 'vitest';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { hashSessionId, STEP_UP_WINDOW_MS } from '#server/auth/sessions.ts';
import { ApiKey, Company, Session, Sim, User } from '#server/db/entities.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946737');
const em = () => portal.server.services.orm.em.fork();
const uniqueKey = () => `replay-${Math.random().toString(36).slice(2)}-${Date.now()}`;

type Answer = { status: number; headers: Headers; text: string; data: any };
type Caller = { cookie?: string; key?: string };

async function call(method: string, path: string, who: Caller, body: unknown, idempotencyKey?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who.cookie) headers.cookie = who.cookie;
  if (who.key) headers.authorization = `Bearer ${who.key}`;
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const res = await fetch(portal.server.url + path, { method, headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, data: text ? JSON.parse(text) : null };
}
const post = (path: string, who: Caller, body: unknown, key?: string) => call('POST', path, who, body, key);

/** A refusal that is not the stored answer: no replay header, no secret of the first answer. */
function expectNoReplay(answer: Answer, status: number, error: string, first: Answer) {
  expect([answer.status, answer.data.error]).toEqual([status, error]);
  expect(answer.headers.get('idempotent-replayed')).toBeNull();
  if (first.data.key) expect(answer.text).not.toContain(first.data.key);
}

let demoId: number;
let ella: string; // the demo company's owner, stepped up
/** The cookie value's raw session id, as the sessions table keys it (hashed). */
const sessionIdOf = (cookie: string) => hashSessionId(cookie.slice(cookie.indexOf('=') + 1));

beforeAll(async () => {
  demoId = (await em().findOneOrFail(Company, { customerNumber: '100001' })).id;
  ella = await portal.server.sessionCookie('ella@demo.test');
});

/** A second owner of the demo company, signed in and stepped up. */
async function newOwner() {
  const e = em();
  const email = `owner-${Math.random().toString(36).slice(2, 8)}@demo.test`;
  const user = e.create(User, { name: 'Olle Ägare', email, company: demoId, role: 'owner' });
  await e.flush();
  return { id: user.id, email, cookie: await portal.server.sessionCookie(email) };
}

describe('an Idempotency-Key replay passes the first request’s checks again', { timeout: 60_000 }, () => {
  it('an owner demoted to viewer does not get the write key’s secret again (403), nor does a member', async () => {
    const olle = await newOwner();
    const body = { name: `replay-demoted-${Date.now()}`, scope: 'write' };
    const key = uniqueKey();
    const first = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
    expect(first.status).toBe(200);
    expect(first.data.key).toMatch(/^sp_/);
    for (const role of ['viewer', 'member'] as const) {
      // Another owner changes Olle's role through the door; Olle's session stays.
      const demoted = await call(
        'PUT',
        '/api/company/users',
        { cookie: ella },
        {
          id: olle.id,
          name: 'Olle Ägare',
          email: olle.email,
          role,
        },
      );
      expect(demoted.status).toBe(200);
      const again = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
      expectNoReplay(again, 403, tCompany.errors.ownerOnly, first);
    }
    // An owner again (and stepped up): the stored answer, the work done once.
    const restored = await call(
      'PUT',
      '/api/company/users',
      { cookie: ella },
      {
        id: olle.id,
        name: 'Olle Ägare',
        email: olle.email,
        role: 'owner',
      },
    );
    expect(restored.status).toBe(200);
    const replayed = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.text]).toEqual([
      200,
      'true',
      first.text,
    ]);
    expect(await em().count(ApiKey, { name: body.name })).toBe(1);
  });

  it('a session without a recent step-up gets 403 stepUp: another session of the user, and the first one aged', async () => {
    const olle = await newOwner();
    const body = { name: `replay-stale-${Date.now()}`, scope: 'write' };
    const key = uniqueKey();
    const first = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
    expect(first.status).toBe(200);
    // The same user in an older session (a cookie left in another browser): the key's caller, not stepped up.
    const older = await portal.server.sessionCookie(olle.email, { steppedUp: false });
    const fromOlder = await post('/api/company/apiKeys', { cookie: older }, body, key);
    expectNoReplay(fromOlder, 403, tSecurity.stepUp.required, first);
    expect(fromOlder.data.stepUp).toBe(true);
    // The first session, its passkey use now older than the window.
    await em().nativeUpdate(
      Session,
      { id: sessionIdOf(olle.cookie) },
      { steppedUpAt: new Date(Date.now() - STEP_UP_WINDOW_MS - 60_000) },
    );
    const aged = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
    expectNoReplay(aged, 403, tSecurity.stepUp.required, first);
    // Stepped up again: the stored answer.
    await em().nativeUpdate(Session, { id: sessionIdOf(olle.cookie) }, { steppedUpAt: new Date() });
    const replayed = await post('/api/company/apiKeys', { cookie: olle.cookie }, body, key);
    expect([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.text]).toEqual([
      200,
      'true',
      first.text,
    ]);
    expect(await em().count(ApiKey, { name: body.name })).toBe(1);
  });

  it('a refusal of the body’s schema, which the checks give again, is still the replayed answer', async () => {
    const member = await portal.server.sessionCookie('anna@demo.test');
    const bad = { iccid: newIccid(), dataLimit: 'mycket', callAndSms: true, roaming: false };
    const key = uniqueKey();
    const first = await post('/api/sim', { cookie: member }, bad, key);
    expect(first.status).toBe(400);
    const again = await post('/api/sim', { cookie: member }, bad, key);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([400, 'true', first.text]);
  });

  it('an API key made read-only gets 403, revoked 401; the SIM was activated once', async () => {
    const made = await post(
      '/api/company/apiKeys',
      { cookie: ella },
      { name: `replay-key-${Date.now()}`, scope: 'write' },
    );
    expect(made.status).toBe(200);
    const apiKey = { key: made.data.key as string };
    const iccid = newIccid();
    const activation = {
      iccid,
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: '',
      invoiceLineNote: '',
    };
    const key = uniqueKey();
    const first = await post('/api/sim', apiKey, activation, key);
    expect(first.status).toBe(200);
    const again = await post('/api/sim', apiKey, activation, key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    // Keys are not changed in place today; the scope is set in the table to prove the replay reads it as it is now.
    await em().nativeUpdate(ApiKey, { id: made.data.id }, { scope: 'read' });
    expectNoReplay(await post('/api/sim', apiKey, activation, key), 403, tApiKeys.errors.readOnly, first);
    await em().nativeUpdate(ApiKey, { id: made.data.id }, { scope: 'write' });
    const revoked = await post(`/api/company/apiKeys/revoke/${made.data.id}`, { cookie: ella }, {});
    expect(revoked.status).toBe(200);
    const afterRevoke = await post('/api/sim', apiKey, activation, key);
    expect([afterRevoke.status, afterRevoke.headers.get('idempotent-replayed')]).toEqual([401, null]);
    expect(await em().count(Sim, { iccid, status: 'active' })).toBe(1);
  });
});
