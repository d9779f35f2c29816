// A JSON body is read as JSON on every door (issue 37, "a boolean sent as a string is read as true"): the REST
// door used to make the procedures' own input schemas coerce (trpc-to-openapi's coerceSchema sets the flag on
// the shared schema objects on first use), so after one REST call "false" was true (Boolean("false")) on REST,
// on tRPC and in the pages. Now, after REST calls to every path, a string where the document says boolean is a
// 400 { error, issues } naming the field on REST and on tRPC, and nothing is saved; a query's strings are still
// read as their fields' types; and no input schema of the router has changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { Sim, User, WebhookEndpoint } from '#server/db/entities.ts';
import { appRouter } from '#server/trpc/router.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946747');

type Answer = { status: number; text: string; data: any };
async function call(method: string, path: string, auth: { cookie?: string; key?: string }, body?: unknown) {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, data: text ? JSON.parse(text) : null };
}
/** A tRPC mutation over HTTP (no transformer: the body is the input). */
const trpc = (procedure: string, cookie: string, input: unknown) =>
  call('POST', `/api/trpc/${procedure}`, { cookie }, input);

/** The issue paths of a refusal, from the REST door's { error, issues } or tRPC's error.data.issues. */
const issuePaths = (a: Answer): string[] =>
  ((a.data.issues ?? a.data.error?.data?.issues ?? []) as Array<{ path: unknown[] }>).map((i) => i.path.join('.'));

// Every node of every input schema of the router, with its coerce flag as it was before any request.
type Node = { _zod?: { def?: Record<string, unknown> } };
function walk(node: unknown, seen: Map<object, unknown>): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  const def = (node as Node)._zod?.def;
  if (!def) return;
  seen.set(node, def.coerce);
  const children: unknown[] = [def.innerType, def.in, def.out, def.element, def.left, def.right, def.valueType];
  if (def.shape && typeof def.shape === 'object') children.push(...Object.values(def.shape));
  if (Array.isArray(def.options)) children.push(...def.options);
  if (Array.isArray(def.items)) children.push(...def.items);
  for (const child of children) walk(child, seen);
}
function coerceFlags(): Map<object, unknown> {
  const seen = new Map<object, unknown>();
  const visit = (procedures: Record<string, unknown>) => {
    for (const procedure of Object.values(procedures)) {
      const def = (procedure as { _def?: { inputs?: unknown[] } })._def;
      for (const input of def?.inputs ?? []) walk(input, seen);
    }
  };
  visit(appRouter._def.procedures);
  return seen;
}

let before: Map<object, unknown>;
let admin: string;
let ella: string;
let readKey: string;

beforeAll(async () => {
  before = coerceFlags();
  admin = await portal.server.sessionCookie('admin@demo.test');
  ella = await portal.server.sessionCookie('ella@demo.test');
  const made = await call('POST', '/api/company/apiKeys', { cookie: ella }, { name: 'booleans-read', scope: 'read' });
  expect(made.status).toBe(200);
  readKey = made.data.key;
  // Every REST path of the document once, as a read key (which the writes and the admin paths refuse, after the
  // door has read their input): the calls that used to set the coerce flag on every path's schema.
  const doc = (await call('GET', '/api/openapi.json', {})).data as { paths: Record<string, Record<string, unknown>> };
  let calls = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item).filter((m) => /^(get|post|put|delete)$/.test(m))) {
      const url = `/api${path.replace(/\{\w+\}/g, '1')}`;
      const r = await call(method.toUpperCase(), url, { key: readKey }, method === 'get' ? undefined : {});
      expect(r.status, `${method} ${url}`).toBeLessThan(500);
      calls++;
    }
  }
  expect(calls).toBeGreaterThan(30);
}, 120_000);

describe('a boolean sent as a string', { timeout: 60_000 }, () => {
  it('"false" for isCompanyOwner and isSuperAdmin: 400 naming the field on REST and on tRPC, nothing saved', async () => {
    const anna = await em().findOneOrFail(User, { email: 'anna@demo.test' });
    const body = {
      id: anna.id,
      name: 'Anna Sträng',
      email: anna.email,
      isCompanyOwner: 'false',
      isSuperAdmin: 'false',
    };
    const rest = await call('PUT', '/api/admin/updateUser', { cookie: admin }, body);
    expect(rest.status, rest.text).toBe(400);
    expect(Object.keys(rest.data).sort()).toEqual(['error', 'issues']);
    expect(issuePaths(rest)).toEqual(expect.arrayContaining(['isCompanyOwner', 'isSuperAdmin']));
    const viaTrpc = await trpc('admin.updateUser', admin, body);
    expect(viaTrpc.status, viaTrpc.text).toBe(400);
    expect(issuePaths(viaTrpc)).toEqual(expect.arrayContaining(['isCompanyOwner', 'isSuperAdmin']));
    // Only one of them a string: that one is named.
    const one = await call('PUT', '/api/admin/updateUser', { cookie: admin }, { ...body, isCompanyOwner: false });
    expect([one.status, issuePaths(one)]).toEqual([400, ['isSuperAdmin']]);
    const after = await em().findOneOrFail(User, { id: anna.id });
    expect([after.name, after.role, after.isSuperAdmin]).toEqual([anna.name, anna.role, false]);
    // Real booleans are taken.
    const ok = await call(
      'PUT',
      '/api/admin/updateUser',
      { cookie: admin },
      {
        ...body,
        name: anna.name,
        isCompanyOwner: false,
        isSuperAdmin: false,
      },
    );
    expect(ok.status, ok.text).toBe(200);
    expect([ok.data.user.isCompanyOwner, ok.data.user.isSuperAdmin]).toEqual([false, false]);
  });

  it('a webhook’s "enabled": "false": 400 naming enabled on REST and on tRPC, the endpoint unchanged', async () => {
    const made = await call(
      'POST',
      '/api/company/webhooks',
      { cookie: ella },
      {
        url: 'http://127.0.0.1:9/hook',
        events: ['sim.activated'],
      },
    );
    expect(made.status, made.text).toBe(200);
    const change = { id: made.data.id, url: 'http://127.0.0.1:9/other', events: ['sim.activated'], enabled: 'false' };
    const rest = await call('PUT', '/api/company/webhooks', { cookie: ella }, change);
    expect([rest.status, issuePaths(rest)]).toEqual([400, ['enabled']]);
    const viaTrpc = await trpc('webhooks.update', ella, change);
    expect([viaTrpc.status, issuePaths(viaTrpc)]).toEqual([400, ['enabled']]);
    const stored = await em().findOneOrFail(WebhookEndpoint, { id: made.data.id });
    expect([stored.url, stored.enabled]).toEqual(['http://127.0.0.1:9/hook', true]);
  });

  it('"callAndSms": "false" (a spelling the SIM forms send, which the document lists) is false on both doors', async () => {
    const activation = (iccid: string) => ({
      iccid,
      dataLimit: 1000,
      callAndSms: 'false',
      roaming: 'false',
      invoiceLineMark: '',
      invoiceLineNote: '',
    });
    const [a, b] = [newIccid(), newIccid()];
    expect((await call('POST', '/api/sim', { cookie: ella }, activation(a))).status).toBe(200);
    expect((await trpc('sim.activate', ella, activation(b))).status).toBe(200);
    const sims = await em().find(Sim, { iccid: { $in: [a, b] } }, { populate: ['ratePlan'] });
    expect(sims.map((s) => [s.ratePlan.call, s.ratePlan.sms, s.ratePlan.roaming])).toEqual([
      [false, false, false],
      [false, false, false],
    ]);
  });

  it('a query is still read as its fields’ types: ?limit=2 on the list', async () => {
    const list = await call('GET', '/api/sim/all?limit=2', { key: readKey });
    expect(list.status).toBe(200);
    expect(list.data.length).toBeLessThanOrEqual(2);
    const refused = await call('GET', '/api/sim/all?limit=many', { key: readKey });
    expect([refused.status, issuePaths(refused)]).toEqual([400, ['limit']]);
  });

  it('no input schema of the router was changed by the REST door', () => {
    const after = coerceFlags();
    const changed = [...after].filter(([node, flag]) => before.get(node) !== flag);
    expect(before.size).toBeGreaterThan(100);
    expect(changed.length).toBe(0);
  });
});
