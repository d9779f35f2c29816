// Long: one table of odd types and bodies is sent to every door, the doors listed here.
// Odd input and a fuzz pass: odd Content-Types (lists, parameters, a
// type that only starts like JSON, upper case, empty, missing) with odd bodies (NUL, \xff, escaped NUL, empty) to
// every door: each REST path of the OpenAPI document, /api/trpc, the form posts of every page, /auth/* and /theme.
// None answers 500 or shows a stack or driver text; one rule (server/http/media-type.ts) decides what is JSON and what
// is a form, so no door takes bytes another would have refused. Ids past PostgreSQL's integer never reach SQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Feedback, User } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();

const LEAKS =
  /\n\s+at |node_modules|\/work\/|DriverException|TypeError|SyntaxError|Unexpected token|out of range|is not valid JSON|Could not parse/i;

let support: string; // a super admin acting as Demo AB: every door of the portal is theirs
let member: string;
let demo: number;

beforeAll(async () => {
  demo = (await em().findOneOrFail(Company, { customerNumber: '100001' })).id;
  support = await portal.server.sessionCookie('admin@demo.test', { actingCompanyId: demo });
  member = await portal.server.sessionCookie('anna@demo.test');
});

type Answer = { status: number; text: string };

async function post(path: string, cookie: string, type: string | undefined, body?: Buffer, method = 'POST') {
  const headers: Record<string, string> = { cookie };
  if (type !== undefined) headers['content-type'] = type;
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: body && new Uint8Array(body),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() } satisfies Answer;
}

const TYPES = [
  undefined,
  '',
  'application/json;charset=x',
  'application/jsonx',
  'application/json ,',
  'application/json, text/plain',
  'APPLICATION/JSON',
  'application/json; charset="utf-8"; x=y',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/octet-stream',
  'application/x-www-form-urlencoded; charset=x',
];
const BODIES: Array<[string, Buffer | undefined]> = [
  ['none', undefined],
  ['{}', Buffer.from('{}')],
  ['escaped NUL', Buffer.from('{"message":"a\\u0000b","destination":"a\\u0000@b.se"}')],
  ['NUL byte', Buffer.from('{"message":"a\0b"}', 'latin1')],
  ['\\xff', Buffer.from('{"message":"a\xffb"}', 'latin1')],
  ['form with %00', Buffer.from('message=a%00b&destination=x%00')],
];

/** The REST paths and methods the API documents, with 1 for every path parameter. */
async function restDoors(): Promise<Array<[string, string]>> {
  const doc = (await (await fetch(`${portal.server.url}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops)
      .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
      .map((m): [string, string] => [m.toUpperCase(), `/api${p.replace(/\{[^}]+\}/g, '1')}`]),
  );
}

// Every page with an action, and the tRPC door's mutations (a call each), /auth/* and /theme.
const PAGE_DOORS = [
  '/add',
  '/add/bulk',
  '/add/bulk/result',
  '/sims/1',
  '/sims/1/deactivate',
  '/sims/deactivate',
  '/sims/tags',
  '/feedback',
  '/feedback.data',
  '/admin/companies',
  '/admin/companies/1',
  '/admin/companies/1/1',
  '/company',
  '/company/users/1',
  '/company/users/1/remove',
  '/company/api-keys',
  '/company/api-keys/1/revoke',
  '/company/webhooks',
  '/company/webhooks/1/delete',
  '/company/rules',
  '/company/rules/1',
  '/company/rules/1/delete',
  '/login',
  '/auth/login',
  '/auth/magic',
  '/theme',
  '/api/trpc/sim.activate',
  '/api/trpc/feedback.send',
  '/api/trpc/company.createUser',
];

describe('odd Content-Types and bodies to every door (finding 5, and the fuzz pass)', () => {
  it(
    'no door answers 500 or shows a stack, and none takes NUL or bad UTF-8 whatever the type says',
    { timeout: 300_000 },
    async () => {
      const doors: Array<[string, string]> = [
        ...(await restDoors()),
        ...PAGE_DOORS.map((p): [string, string] => ['POST', p]),
      ];
      expect(doors.length).toBeGreaterThan(40);
      const feedbackBefore = await em().count(Feedback);
      const wrong: string[] = [];
      for (const [method, path] of doors) {
        for (const type of TYPES) {
          for (const [name, body] of BODIES) {
            const r = await post(path, support, type, body, method);
            const what = `${method} ${path} ${JSON.stringify(type)} ${name}: ${r.status}`;
            if (r.status >= 500 || LEAKS.test(r.text)) wrong.push(`${what} ${r.text.slice(0, 120)}`);
            // Bytes no text may hold are refused, whatever door and type.
            if ((name === 'NUL byte' || name === '\\xff') && r.status < 400) wrong.push(`${what} took the bytes`);
          }
        }
      }
      expect(wrong).toEqual([]);
      // Nothing with a U+FFFD or a NUL was stored by a door that read the body as something it was not.
      const stored = await em().find(Feedback, {});
      expect(stored.length).toBe(feedbackBefore);
    },
  );

  it('the REST door reads exactly application/json (any case, any parameters) and refuses the rest', async () => {
    const message = Buffer.from(JSON.stringify({ message: 'Hej från en konstig rubrik' }));
    for (const type of ['application/json', 'APPLICATION/JSON', 'application/json; charset=utf-8'])
      expect((await post('/api/feedback', member, type, message)).status, type).toBe(200);
    for (const type of [
      'application/jsonx',
      'application/json ,',
      'application/json, text/plain',
      'text/json',
      undefined,
    ]) {
      const r = await post('/api/feedback', member, type, message);
      expect(r.status, String(type)).toBe(400);
      expect(JSON.parse(r.text)).toEqual({ error: expect.any(String), issues: [] });
    }
    // \xff in a body labelled like JSON is refused, not stored as U+FFFD.
    const bad = Buffer.from('{"message":"tr\xe4d"}', 'latin1');
    expect((await post('/api/feedback', member, 'application/jsonx', bad)).status).toBe(400);
    expect(await em().count(Feedback, { message: { $like: '%\uFFFD%' } })).toBe(0);
  });

  it('a page takes its form (and the login form JSON); anything else is a 415 page, not an error in the action', async () => {
    const r = await post('/feedback', member, 'application/json', Buffer.from('{"message":"x"}'));
    expect(r.status).toBe(415);
    expect(r.text).toContain('tar bara emot ett formulär');
    // Nothing at all is an empty form: the action says what is missing, next to the field.
    expect((await post('/feedback', member, undefined)).status).toBe(200);
    expect((await post('/feedback', member, undefined, Buffer.from('message=x'))).status).toBe(415);
    expect(
      (await post('/feedback', member, 'application/x-www-form-urlencoded', Buffer.from('message=Hej'))).status,
    ).toBe(302);
    const login = await post('/auth/login', '', 'Application/JSON', Buffer.from('{"destination":"vem@demo.test"}'));
    expect(login.status).toBeLessThan(500);
    expect(login.status).not.toBe(415);
  });
});

describe('ids past PostgreSQL’s integer (finding 6)', () => {
  const TOO_BIG = ['2147483648', '9999999999'];
  it.each(TOO_BIG)('a REST path or query with %s is refused as bad input (400), never reaches SQL', async (id) => {
    for (const path of [
      `/api/sim/${id}`,
      `/api/admin/getUser/${id}`,
      `/api/admin/getCompany/${id}`,
      `/api/company/audit?before=${id}`,
    ]) {
      const res = await fetch(portal.server.url + path, { headers: { cookie: support } });
      const text = await res.text();
      expect(res.status, path).toBe(400);
      expect(JSON.parse(text), path).toEqual({ error: expect.any(String), issues: expect.any(Array) });
      expect(text).not.toMatch(LEAKS);
    }
    for (const path of [
      `/api/sim/deactivate/${id}`,
      `/api/company/users/remove/${id}`,
      `/api/company/apiKeys/revoke/${id}`,
    ]) {
      const r = await post(path, support, 'application/json', Buffer.from('{}'));
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(r.text).not.toMatch(LEAKS);
    }
    const body = Buffer.from(JSON.stringify({ id: Number(id), name: 'X', email: 'x@demo.test', role: 'member' }));
    expect((await post('/api/company/users', support, 'application/json', body, 'PUT')).status).toBe(400);
  });

  it.each(TOO_BIG)('a page with %s in its path is 404', async (id) => {
    for (const path of [
      `/sims/${id}`,
      `/sims/${id}/deactivate`,
      `/company/users/${id}`,
      `/admin/companies/${id}`,
      `/admin/companies/${demo}/${id}`,
    ]) {
      const res = await fetch(portal.server.url + path, { headers: { cookie: support }, redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(LEAKS);
    }
  });

  it('the largest id there can be is simply not found', async () => {
    const res = await fetch(`${portal.server.url}/api/sim/2147483647`, { headers: { cookie: support } });
    expect(res.status).toBe(404);
    expect((await fetch(`${portal.server.url}/sims/2147483647`, { headers: { cookie: support } })).status).toBe(404);
  });
});

describe('POST /theme with a Referer that is no address (finding 7)', () => {
  it.each(['http://[', '::::', 'http://exa mple.se/', '%', 'javascript:alert(1)', 'http://evil.example/sims'])(
    'goes home with the theme set: %j',
    async (referer) => {
      const res = await fetch(`${portal.server.url}/theme`, {
        method: 'POST',
        headers: { cookie: member, referer, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'theme=light',
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.get('set-cookie')).toContain('light');
    },
  );

  it('goes back to a page of this site', async () => {
    const res = await fetch(`${portal.server.url}/theme`, {
      method: 'POST',
      headers: {
        cookie: member,
        referer: `${portal.server.url}/sims?q=abc`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'theme=dark',
      redirect: 'manual',
    });
    expect(res.headers.get('location')).toBe('/sims?q=abc');
  });
});

// The user rows the doors were fed stay as they were: no row was made by a body read as something it was not.
describe('afterwards', () => {
  it('no user was made from the odd bodies', async () => {
    expect(await em().count(User, { name: 'X' })).toBe(0);
  });
});
