// Long: the spec's REST paths, each with its statuses and answers, against one server and its data.
// The spec's REST paths over HTTP: status codes, answers and the one error shape.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { ASYNC_COMPRESS_FROM_BYTES } from '#server/http/compress.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let anna: string;
let bo: string;
const newIccid = iccidFactory('8946555');

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const other = em.create(Company, {
    name: 'Bolag B',
    customerNumber: 'B-1',
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  em.create(User, { name: 'Bo', email: 'bo@b.se', company: other });
  await em.flush();
  anna = await portal.server.sessionCookie('anna@demo.test');
  bo = await portal.server.sessionCookie('bo@b.se');
});

async function call(
  method: string,
  path: string,
  opts: { cookie?: string; json?: unknown; body?: string; type?: string | null } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (opts.body !== undefined) body = opts.body;
  if (body !== undefined && opts.type !== null) headers['content-type'] = opts.type ?? 'application/json';
  const res = await fetch(portal.server.url + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let data: any = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  // Never a stack trace or SQL in an answer.
  expect(text).not.toMatch(/\n\s+at |node_modules|select .* from|insert into/i);
  return { status: res.status, data, headers: res.headers };
}

const activation = (iccid: string) => ({
  iccid,
  dataLimit: 1000,
  callAndSms: true,
  roaming: false,
  invoiceLineMark: 'API',
  invoiceLineNote: '',
});

describe('anonymous callers', () => {
  it.each([
    ['GET', '/api/rate_plans'],
    ['POST', '/api/sim'],
    ['GET', '/api/sim/all'],
    ['GET', '/api/sim/1'],
    ['PUT', '/api/sim/edit/'],
    ['POST', '/api/sim/deactivate/1'],
    ['POST', '/api/admin/loginAsCompany/'],
    ['GET', '/api/export/getExcelV1?start_year=2024&start_month=1&end_year=2024&end_month=1'],
  ])('%s %s answers 401 with { error, issues: [] }', async (method, path) => {
    const r = await call(
      method,
      path,
      method === 'GET'
        ? {}
        : { json: method === 'PUT' ? { id: 1, dataLimit: 500 } : { iccid: newIccid(), dataLimit: 500, companyId: 1 } },
    );
    expect(r.status).toBe(401);
    expect(r.data).toEqual({ error: 'Du är inte inloggad.', issues: [] });
  });
});

describe('rate plans and SIMs', () => {
  it('GET /api/rate_plans lists the selectable plans', async () => {
    const r = await call('GET', '/api/rate_plans', { cookie: anna });
    expect(r.status).toBe(200);
    expect(r.data.length).toBeGreaterThanOrEqual(8);
    expect(r.data.every((p: any) => p.isLegacy === false && typeof p.dataLimit === 'number')).toBe(true);
  });

  it('POST /api/sim activates, GET /api/sim/{id} reads, PUT /api/sim/edit/ edits, POST /api/sim/deactivate/{id} deactivates', async () => {
    const iccid = newIccid();
    const created = await call('POST', '/api/sim', { cookie: anna, json: activation(iccid) });
    expect(created.status).toBe(200);
    expect(created.data).toEqual({ success: true, id: expect.any(Number) });
    const id = created.data.id;
    const got = await call('GET', `/api/sim/${id}`, { cookie: anna });
    expect(got.status).toBe(200);
    expect(got.data).toMatchObject({
      id,
      iccid,
      invoiceLineMark: 'API',
      ratePlan: { code: 'DATA-1000-TS' },
      history: [{ kind: 'activated' }],
    });
    const edited = await call('PUT', '/api/sim/edit/', {
      cookie: anna,
      json: { id, dataLimit: 1000, callAndSms: false, roaming: false, invoiceLineMark: 'API 2', invoiceLineNote: 'x' },
    });
    expect(edited.status).toBe(200);
    expect(edited.data).toEqual({ success: true, changed: true });
    const list = await call('GET', `/api/sim/all?q=${iccid}`, { cookie: anna });
    expect(list.data).toHaveLength(1);
    expect(list.data[0].invoiceLineMark).toBe('API 2');
    const off = await call('POST', `/api/sim/deactivate/${id}`, { cookie: anna, json: {} });
    expect(off.status).toBe(200);
    expect(off.data).toEqual({ success: true });
    expect((await call('POST', `/api/sim/deactivate/${id}`, { cookie: anna, json: {} })).status).toBe(404);
  });

  it('GET /api/sim/all accepts q, limit and offset', async () => {
    const all = await call('GET', '/api/sim/all', { cookie: anna });
    expect(all.status).toBe(200);
    const page = await call('GET', '/api/sim/all?limit=1&offset=1', { cookie: anna });
    expect(page.data).toHaveLength(1);
    expect(page.data[0].id).toBe(all.data[1].id);
    expect((await call('GET', '/api/sim/all?limit=0', { cookie: anna })).status).toBe(400);
  });

  it('reads the query as flat names and values: a bracketed name is only an unknown name, not an object', async () => {
    const page = await call('GET', '/api/sim/all?limit=1&limit[x]=5&q[a]=b', { cookie: anna });
    expect(page.status).toBe(200);
    expect(page.data).toHaveLength(1);
  });

  it('answers 400 with { error, issues } naming the field for bad input', async () => {
    const bad = await call('POST', '/api/sim', {
      cookie: anna,
      json: { ...activation('123'), invoiceLineMark: 'x'.repeat(300) },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.error).toBe('ICCID ska vara exakt 20 siffror.');
    expect(bad.data.issues).toEqual(
      expect.arrayContaining([
        { path: ['iccid'], message: 'ICCID ska vara exakt 20 siffror.' },
        { path: ['invoiceLineMark'], message: 'Högst 200 tecken.' },
      ]),
    );
    const noPlan = await call('POST', '/api/sim', {
      cookie: anna,
      json: { ...activation(newIccid()), dataLimit: 500 },
    });
    expect(noPlan.status).toBe(400);
    expect(noPlan.data.issues[0].path).toEqual(['callAndSms']);
    expect((await call('GET', '/api/sim/abc', { cookie: anna })).status).toBe(400);
  });

  it('answers bad ids, limits and missing fields in Swedish, naming the field', async () => {
    const cases: Array<[string, string, unknown, string, string]> = [
      ['GET', '/api/sim/abc', undefined, 'id', 'id måste vara ett tal.'],
      ['GET', '/api/sim/-1', undefined, 'id', 'id måste vara större än 0.'],
      ['GET', '/api/sim/all?limit=abc', undefined, 'limit', 'limit måste vara ett tal.'],
      ['GET', '/api/sim/all?limit=100000', undefined, 'limit', 'limit får vara högst 50.'],
      [
        'PUT',
        '/api/sim/edit',
        { dataLimit: 1000, callAndSms: false, roaming: false, invoiceLineMark: '', invoiceLineNote: '' },
        'id',
        'id saknas.',
      ],
    ];
    for (const [method, path, json, field, message] of cases) {
      const r = await call(method, path, { cookie: anna, json });
      expect(r.status, path).toBe(400);
      expect(r.data, path).toEqual({ error: message, issues: [{ path: [field], message }] });
    }
  });

  it('PUT /api/sim/edit without invoiceLineNote is a 400 naming it, and keeps the note', async () => {
    const created = await call('POST', '/api/sim', {
      cookie: anna,
      json: { ...activation(newIccid()), invoiceLineNote: 'Behålls' },
    });
    const id = created.data.id;
    const r = await call('PUT', '/api/sim/edit', {
      cookie: anna,
      json: { id, dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'API' },
    });
    expect(r.status).toBe(400);
    expect(r.data).toEqual({
      error: 'invoiceLineNote saknas.',
      issues: [{ path: ['invoiceLineNote'], message: 'invoiceLineNote saknas.' }],
    });
    expect((await call('GET', `/api/sim/${id}`, { cookie: anna })).data.invoiceLineNote).toBe('Behålls');
  });

  it('answers 400 for malformed JSON and a missing or wrong content type, 413 above 100 kB', async () => {
    const malformed = await call('POST', '/api/sim', { cookie: anna, body: '{"iccid": ', type: 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.data.error).toContain('JSON');
    const noType = await call('POST', '/api/sim', {
      cookie: anna,
      body: JSON.stringify(activation(newIccid())),
      type: null,
    });
    expect(noType.status).toBe(400);
    expect(noType.data.error).toBe('Innehållstypen måste vara application/json.');
    const wrongType = await call('POST', '/api/sim', { cookie: anna, body: 'iccid=1', type: 'text/plain' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.data.error).toBe('Innehållstypen måste vara application/json.');
    const huge = await call('POST', '/api/sim', {
      cookie: anna,
      json: { ...activation(newIccid()), invoiceLineNote: 'x'.repeat(150_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.data.error).toContain('100 kB');
  });

  it('POST /api/sim/deactivate/{id} takes no body and no content type (its input is the path)', async () => {
    const created = await call('POST', '/api/sim', { cookie: anna, json: activation(newIccid()) });
    const res = await fetch(`${portal.server.url}/api/sim/deactivate/${created.data.id}`, {
      method: 'POST',
      headers: { cookie: anna },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    // Whatever body comes is not read: a text body does not make it a content-type error.
    const again = await call('POST', `/api/sim/deactivate/${created.data.id}`, {
      cookie: anna,
      body: 'ignored',
      type: 'text/plain',
    });
    expect(again.status).toBe(404);
  });

  it('answers an anonymous caller 401 before looking at the body', async () => {
    for (const [method, path] of [
      ['POST', '/api/sim'],
      ['PUT', '/api/sim/edit'],
      ['POST', '/api/sim/deactivate/1'],
      ['POST', '/api/admin/createCompany'],
    ]) {
      for (const opts of [{ body: '{"iccid": ', type: 'application/json' }, { body: 'x=1', type: 'text/plain' }, {}]) {
        const r = await call(method!, path!, opts);
        expect(r.status, `${method} ${path} ${JSON.stringify(opts)}`).toBe(401);
        expect(r.data).toEqual({ error: 'Du är inte inloggad.', issues: [] });
      }
    }
  });

  it('answers 409 for an already active ICCID and for a legacy SIM', async () => {
    const iccid = newIccid();
    expect((await call('POST', '/api/sim', { cookie: anna, json: activation(iccid) })).status).toBe(200);
    const dup = await call('POST', '/api/sim', { cookie: bo, json: activation(iccid) });
    expect(dup.status).toBe(409);
    expect(dup.data).toEqual({
      error: 'Det finns redan ett aktivt SIM-kort med det här ICCID-numret.',
      issues: [{ path: ['iccid'], message: 'Det finns redan ett aktivt SIM-kort med det här ICCID-numret.' }],
    });
    const legacy = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', ratePlan: { isLegacy: true } });
    const r = await call('POST', `/api/sim/deactivate/${legacy.id}`, { cookie: anna, json: {} });
    expect(r.status).toBe(409);
    expect(r.data.error).toContain('Kontakta supporten');
  });

  it('answers 404 for another company’s SIM and for unknown paths', async () => {
    const annas = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', company: { name: 'Demo AB' } });
    expect((await call('GET', `/api/sim/${annas.id}`, { cookie: bo })).status).toBe(404);
    expect(
      (
        await call('PUT', '/api/sim/edit', {
          cookie: bo,
          json: {
            id: annas.id,
            dataLimit: 1000,
            callAndSms: false,
            roaming: false,
            invoiceLineMark: 'x',
            invoiceLineNote: '',
          },
        })
      ).status,
    ).toBe(404);
    const unknown = await call('GET', '/api/no/such/path', { cookie: anna });
    expect(unknown.status).toBe(404);
    expect(unknown.data).toEqual({ error: 'Det du söker finns inte.', issues: [] });
  });

  it('the login door refuses in the same { error, issues } shape', async () => {
    const res = await fetch(portal.server.url + '/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-mode': 'cors' },
      body: JSON.stringify({ destination: 'inte-en-adress' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Ange en giltig e-postadress.',
      issues: [{ path: ['destination'], message: 'Ange en giltig e-postadress.' }],
    });
    const get = await call('GET', '/auth/login');
    expect(get.status).toBe(405);
    expect(get.data).toEqual({ error: 'Använd POST.', issues: [] });
  });
});

describe('admin paths', () => {
  it('POST /api/admin/loginAsCompany/ is for super admins (403 otherwise) and rotates the session', async () => {
    const company = await portal.server.services.orm.em.fork().findOneOrFail(Company, { customerNumber: 'B-1' });
    const refused = await call('POST', '/api/admin/loginAsCompany/', { cookie: anna, json: { companyId: company.id } });
    expect(refused.status).toBe(403);
    expect(refused.data).toEqual({ error: 'Du har inte behörighet till detta.', issues: [] });
    const cookie = await portal.server.sessionCookie('admin@demo.test');
    const ok = await call('POST', '/api/admin/loginAsCompany/', { cookie, json: { companyId: company.id } });
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ success: true });
    const rotated = ok.headers.get('set-cookie')!.split(';')[0]!;
    expect(rotated).not.toBe(cookie);
    const sims = await call('GET', '/api/sim/all', { cookie: rotated });
    expect(sims.status).toBe(200);
    expect((await call('GET', '/api/sim/all', { cookie })).status).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document listing every REST path of the spec', async () => {
    const r = await call('GET', '/api/openapi.json');
    expect(r.status).toBe(200);
    expect(r.data.openapi).toMatch(/^3\.1/);
    const { validate } = await import('@readme/openapi-parser');
    const result = await validate(structuredClone(r.data));
    expect(result.valid, JSON.stringify((result as { errors?: unknown }).errors ?? '')).toBe(true);
    const paths = Object.keys(r.data.paths);
    for (const p of [
      '/rate_plans',
      '/sim',
      '/sim/all',
      '/sim/{id}',
      '/sim/edit',
      '/sim/deactivate/{id}',
      '/admin/loginAsCompany',
    ]) {
      expect(paths).toContain(p);
    }
    const post = r.data.paths['/sim'].post;
    expect(post.requestBody).toBeTruthy();
    expect(post.responses['200']).toBeTruthy();
    // Generated clients name their calls by operationId: renaming a procedure in code must not rename them.
    expect(r.data.paths['/sim/all'].get.operationId).toBe('sim-all');
  });
});

describe('compression of API answers', () => {
  function get(path: string, headers: Record<string, string>) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(portal.server.url + path, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  it('compresses a large answer as the client accepts (brotli, gzip, none), with its length and Vary', async () => {
    for (let i = 0; i < 6; i++)
      expect((await call('POST', '/api/sim', { cookie: anna, json: activation(newIccid()) })).status).toBe(200);
    const plain = await get('/api/sim/all', { cookie: anna });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const expected = JSON.parse(plain.body.toString('utf8'));
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0.5, gzip;q=1', 'gzip', gunzipSync],
      ['identity', undefined, (b: Buffer) => b],
    ] as const) {
      const r = await get('/api/sim/all', { cookie: anna, 'accept-encoding': accept });
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers.vary).toContain('Accept-Encoding');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(JSON.parse(decode(r.body).toString('utf8'))).toEqual(expected);
    }
  });

  it('compresses a large answer (a full page of long marks and notes) as well, off the event loop', async () => {
    const em = portal.server.services.orm.em.fork();
    const big = em.create(Company, {
      name: 'Stora listan AB',
      customerNumber: 'BIG-1',
      invoiceNote: '',
      invoiceInterval: 'monthly',
    });
    em.create(User, { name: 'Lisa', email: 'lisa@big.se', company: big });
    await em.flush();
    await em.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '89461234' || lpad(g::text, 12, '0'), ?, (select min(id) from rate_plan where not is_legacy), left(repeat('Fordon ' || g || ' Åkeri ', 20), 200), repeat('🚚', 200), 'active', now()
         from generate_series(1, 400) g`,
      [big.id],
    );
    const cookie = await portal.server.sessionCookie('lisa@big.se');
    const plain = await get('/api/sim/all', { cookie });
    expect(plain.body.length).toBeGreaterThan(ASYNC_COMPRESS_FROM_BYTES);
    expect(JSON.parse(plain.body.toString('utf8'))).toHaveLength(50); // a page: no list is whole
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const r = await get('/api/sim/all', { cookie, 'accept-encoding': accept });
      expect(r.headers['content-encoding']).toBe(accept);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(decode(r.body).equals(plain.body)).toBe(true);
    }
  });

  it('answers HEAD like GET without the body, and paths whatever their case', async () => {
    const head = await fetch(portal.server.url + '/api/sim/all', { method: 'HEAD', headers: { cookie: anna } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('application/json');
    expect(await head.text()).toBe('');
    expect((await fetch(portal.server.url + '/api/sim/all', { method: 'HEAD' })).status).toBe(401);
    const upper = await call('GET', '/API/Sim/All/', { cookie: anna });
    expect(upper.status).toBe(200);
    expect(Array.isArray(upper.data)).toBe(true);
  });

  it('leaves a small answer uncompressed', async () => {
    const r = await get('/api/sim/999999', { cookie: anna, 'accept-encoding': 'gzip, br' });
    expect(r.status).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.body.toString('utf8')).error).toBe('SIM-kortet finns inte.');
  });
});
