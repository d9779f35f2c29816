// Keys and CSV. An API key belongs to the company, not to the person who made it
// (docs/decisions/018): it keeps working when its creator is demoted or removed, is listed with the creator
// named as removed, and any owner can revoke it. And a CSV cell with spaces before =, +, - or @ is neutralised,
// here in the bulk result file a browser posts back (/add/bulk/result).
import { beforeAll, describe, expect, it } from 'vitest';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946488');
let owner: string;

type Answer = { status: number; data: any };

async function call(method: string, path: string, auth: { cookie?: string; key?: string }, body?: unknown) {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const res = await fetch(portal.server.url + path, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : null } satisfies Answer;
}

const activation = () => ({ iccid: newIccid(), dataLimit: 1000, callAndSms: false, roaming: false });

beforeAll(async () => {
  owner = await portal.server.sessionCookie('ella@demo.test');
});

describe('an API key outlives its creator’s role', () => {
  it('keeps reading and writing after its creator is demoted, then removed; an owner sees and revokes it', async () => {
    const made = await call(
      'POST',
      '/api/company/users',
      { cookie: owner },
      {
        name: 'Kim Integratör',
        email: 'kim.integrator@demo.test',
        role: 'owner',
      },
    );
    const kim = made.data.newUser as { id: number; email: string };
    const kimCookie = await portal.server.sessionCookie(kim.email);
    const created = await call(
      'POST',
      '/api/company/apiKeys',
      { cookie: kimCookie },
      { name: 'Lagersystemet', scope: 'write' },
    );
    expect(created.status).toBe(200);
    const key = created.data.key as string;
    const works = async () => {
      expect((await call('GET', '/api/sim/all', { key })).status).toBe(200);
      expect((await call('POST', '/api/sim', { key }, activation())).status).toBe(200);
    };
    await works();

    const demoted = await call(
      'PUT',
      '/api/company/users',
      { cookie: owner },
      { id: kim.id, name: 'Kim Integratör', email: kim.email, role: 'viewer' },
    );
    expect(demoted.status).toBe(200);
    await works(); // the company's integration does not stop because Kim changed role

    expect((await call('POST', `/api/company/users/remove/${kim.id}`, { cookie: owner }, {})).status).toBe(200);
    await works(); // nor because Kim left
    const listed = (await call('GET', '/api/company/apiKeys', { cookie: owner })).data as Array<{
      id: number;
      name: string;
      createdBy: string;
      status: string;
    }>;
    const row = listed.find((k) => k.name === 'Lagersystemet')!;
    expect(row).toMatchObject({ createdBy: 'Kim Integratör (borttagen)', status: 'active' });

    expect((await call('POST', `/api/company/apiKeys/revoke/${row.id}`, { cookie: owner }, {})).status).toBe(200);
    expect((await call('GET', '/api/sim/all', { key })).status).toBe(401);
  });
});

describe('CSV cells with whitespace before a formula', () => {
  it('are neutralised in the bulk result file', async () => {
    const anna = await portal.server.sessionCookie('anna@demo.test');
    const results = JSON.stringify([
      ['  =HYPERLINK("http://evil.example";"klicka")', 'invalid'],
      ['\u00a0+46701234567', 'invalid'],
    ]);
    const res = await fetch(`${portal.server.url}/add/bulk/result`, {
      method: 'POST',
      headers: { cookie: anna, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ format: 'csv', results }),
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\r\n');
    expect(lines[1]!.startsWith(`"'  =HYPERLINK(`)).toBe(true);
    expect(lines[2]).toMatch(/^'\u00a0\+46701234567;/);
  });
});
