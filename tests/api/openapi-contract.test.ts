// Long: the document's rules and every REST door's real answers are held to one document.
// The OpenAPI document tells the truth: it is valid OpenAPI 3.1 (Redocly's recommended rules run in
// `npm run lint:openapi`, with redocly.yaml), every operation has a summary, a description, tags and examples,
// every error answer refers to the one Error schema, real error answers of the REST door fit the document's
// schema for their status (server/http/openapi-document.ts makes it so; every other test's answers are checked
// too, by tests/helpers/openapi-setup.ts), and real webhook deliveries fit the document's `webhooks`.
// Over 250 lines: one document, checked as a whole.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { httpError } from '#server/http/answer.ts';
import { CONFLICTS } from '#server/http/openapi-document.ts';
import { sweepSilence } from '#server/rules/silence.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const RATE_LIMIT = 3;
const activation = (iccid: string) => ({
  iccid,
  dataLimit: 1000,
  callAndSms: true,
  roaming: false,
  invoiceLineMark: 'Kontrakt',
  invoiceLineNote: '',
});
let server: TestServer;
let doc: Json;
let member: string;
let viewer: string;
let ownerNotSteppedUp: string;
let owner: string;
const newIccid = iccidFactory('8946933');

beforeAll(async () => {
  server = await startTestServer({
    env: { API_KEY_RATE_LIMIT: String(RATE_LIMIT), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_POLL_MS: '100' },
  });
  const em = server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  em.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
  await em.flush();
  member = await server.sessionCookie('anna@demo.test');
  viewer = await server.sessionCookie('vera@demo.test');
  owner = await server.sessionCookie('ella@demo.test');
  ownerNotSteppedUp = await server.sessionCookie('ella@demo.test', { steppedUp: false });
  doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Json;
});
afterAll(async () => {
  await server?.stop();
});

function operations(): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** A local reference of the document (#/components/...). */
function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
/** Validates a value against a schema of the document (its references resolved against the document). */
function fits(schema: Json, value: unknown): string | null {
  const validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const { validate, compileErrors } = await import('@readme/openapi-parser');
    const copy = structuredClone(doc);
    // The validator's own type, claimed only for a document that says it is OpenAPI 3.1 (the validator checks the rest).
    const isOpenApi31 = (d: Json): d is Json & OpenAPIV3_1.Document =>
      typeof d.openapi === 'string' && d.openapi.startsWith('3.1.') && typeof d.info === 'object';
    if (!isOpenApi31(copy)) throw new Error('/api/openapi.json does not say openapi: 3.1.x');
    const result = await validate(copy);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('gives every operation a summary, a description, tags, its key scope and security', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(30);
    for (const { method, path, op } of ops) {
      const at = `${method.toUpperCase()} ${path}`;
      expect(op.summary, at).toEqual(expect.stringMatching(/\S/));
      expect(op.description, at).toEqual(expect.stringMatching(/\S/));
      expect(op.tags, at).toEqual([expect.stringMatching(/\S/)]);
      expect(op, at).toHaveProperty('x-required-scope');
      // The network's usage feed takes its integration key only (decision 034); every other path a session.
      if (op['x-required-scope'] === 'network') expect(op.security, at).toEqual([{ networkKey: [] }]);
      else expect(op.security, at).toEqual(expect.arrayContaining([{ session: [] }]));
    }
    expect(ops.filter(({ op }) => op['x-required-scope'] === 'network').map(({ path }) => path)).toEqual([
      '/network/usage',
    ]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'networkKey', 'session']);
  });

  it('describes every error answer with the one Error schema, and no status a door never sends', () => {
    expect(Object.keys(doc.components.schemas).filter((name) => !name.startsWith('Webhook'))).toEqual(['Error']);
    for (const { method, path, op } of operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(op.responses);
      for (const status of ['200', '400', '401', '403', '413', '429', '500', '503'])
        expect(statuses, at).toContain(status);
      expect(statuses, at).not.toContain('415'); // a wrong content type is a 400 on the REST paths
      for (const [status, answer] of Object.entries(op.responses as Record<string, Json>)) {
        if (status.startsWith('2')) continue;
        expect(answer.$ref, `${at} ${status}`).toMatch(/^#\/components\/responses\//);
        const shared = resolve(answer);
        expect(shared.content['application/json'].schema, `${at} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
        if (status === '429' || status === '503')
          expect(shared.headers?.['Retry-After'], `${at} ${status}`).toBeTruthy();
        expect(Object.keys(shared.headers ?? {}), `${at} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
        );
      }
      // The rate-limit headers on every answer; a change takes an Idempotency-Key and may answer 409 and 422.
      for (const [status, answer] of Object.entries(op.responses as Record<string, Json>))
        if (status.startsWith('2'))
          expect(Object.keys(answer.headers ?? {}), `${at} ${status}`).toEqual(
            expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
          );
      const change = ['post', 'put', 'patch'].includes(method);
      expect(
        (op.parameters ?? []).some((p: Json) => resolve(p).name === 'Idempotency-Key'),
        `${at} Idempotency-Key`,
      ).toBe(change);
      if (change) {
        expect(statuses, at).toEqual(expect.arrayContaining(['409', '422']));
        expect(op.responses['200'].headers['Idempotent-Replayed'], at).toBeTruthy();
      }
    }
    // The operations said to conflict are all in the document (a renamed path would drop its 409 silently).
    const named = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    expect([...CONFLICTS].filter((op) => !named.has(op))).toEqual([]);
    // A path parameter names a thing that may not exist; a conflict where the service may refuse with one.
    expect(doc.paths['/sim/{id}'].get.responses['404']).toBeTruthy();
    expect(doc.paths['/sim'].post.responses['409']).toBeTruthy();
    expect(doc.paths['/rate_plans'].get.responses['404']).toBeUndefined();
  });

  it('has an example of each request and answer, and each fits its schema', () => {
    for (const { method, path, op } of operations()) {
      const at = `${method.toUpperCase()} ${path}`;
      const body = op.requestBody?.content?.['application/json'];
      if (body) {
        expect(body.example, `${at} request`).toBeDefined();
        expect(fits(body.schema, body.example), `${at} request`).toBeNull();
      }
      for (const parameter of op.parameters ?? [])
        if (parameter.example !== undefined)
          expect(fits(parameter.schema, parameter.example), `${at} ${parameter.name}`).toBeNull();
      if (!body && !op.parameters?.some((p: Json) => p.example !== undefined) && op.parameters?.length)
        expect.fail(`${at}: no example of its request`);
      const answer = op.responses['200'].content?.['application/json'];
      if (answer) {
        expect(answer.example, `${at} answer`).toBeDefined();
        expect(fits(answer.schema, answer.example), `${at} answer`).toBeNull();
      }
    }
    for (const [name, response] of Object.entries(doc.components.responses as Record<string, Json>)) {
      const content = response.content['application/json'];
      expect(fits(content.schema, content.example), name).toBeNull();
    }
  });
});

describe('real answers fit the document', () => {
  async function call(
    method: string,
    url: string,
    opts: { cookie?: string; key?: string; json?: unknown; body?: string; type?: string | null } = {},
  ) {
    const headers: Record<string, string> = {};
    if (opts.cookie) headers.cookie = opts.cookie;
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.body;
    if (body !== undefined && opts.type !== null) headers['content-type'] = opts.type ?? 'application/json';
    const res = await fetch(server.url + url, { method, headers, body });
    return { status: res.status, headers: res.headers, data: JSON.parse(await res.text()) as Json };
  }

  /** The answer's status is one the operation lists, and its body fits that status's schema. */
  function expectDocumented(method: string, path: string, answer: { status: number; data: Json }) {
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${method} ${path} in the document`).toBeTruthy();
    const response = op.responses[String(answer.status)];
    expect(response, `${method} ${path} lists ${answer.status}`).toBeTruthy();
    const schema = resolve(response).content['application/json'].schema;
    expect(fits(schema, answer.data), `${method} ${path} ${answer.status}: ${JSON.stringify(answer.data)}`).toBeNull();
  }

  async function newKey(scope: 'read' | 'write') {
    const r = await call('POST', '/api/company/apiKeys', {
      cookie: owner,
      json: { name: `kontrakt-${scope}-${Math.random().toString(36).slice(2, 8)}`, scope },
    });
    expect(r.status).toBe(200);
    expectDocumented('POST', '/company/apiKeys', r);
    return r.data.key as string;
  }

  it('200: an activation, a SIM and the list', async () => {
    const created = await call('POST', '/api/sim', { cookie: member, json: activation(newIccid()) });
    expect(created.status).toBe(200);
    expectDocumented('POST', '/sim', created);
    const one = await call('GET', `/api/sim/${created.data.id}`, { cookie: member });
    expectDocumented('GET', '/sim/{id}', one);
    expectDocumented('GET', '/sim/all', await call('GET', '/api/sim/all?limit=5', { cookie: member }));
  });

  it('400: a refused field, malformed JSON, a wrong or missing content type (400 here, never 415)', async () => {
    const field = await call('POST', '/api/sim', { cookie: member, json: activation('123') });
    expect(field.status).toBe(400);
    expect(field.data.issues[0].path).toEqual(['iccid']);
    expectDocumented('POST', '/sim', field);
    const malformed = await call('POST', '/api/sim', { cookie: member, body: '{"iccid": ' });
    expect(malformed.status).toBe(400);
    expectDocumented('POST', '/sim', malformed);
    const wrongType = await call('POST', '/api/sim', { cookie: member, body: 'iccid=1', type: 'text/plain' });
    expect(wrongType.status).toBe(400);
    expectDocumented('POST', '/sim', wrongType);
    const noType = await call('POST', '/api/sim', {
      cookie: member,
      body: JSON.stringify(activation(newIccid())),
      type: null,
    });
    expect(noType.status).toBe(400);
    expectDocumented('POST', '/sim', noType);
    const both = await call('GET', '/api/sim/all', { cookie: member, key: 'sp_x' });
    expect(both.status).toBe(400);
    expectDocumented('GET', '/sim/all', both);
  });

  it('401: no session, and a wrong key (before the body is read)', async () => {
    const none = await call('GET', '/api/sim/all');
    expect(none.status).toBe(401);
    expectDocumented('GET', '/sim/all', none);
    const wrongKey = await call('POST', '/api/sim', { key: 'sp_wrong', body: '{"not json' });
    expect(wrongKey.status).toBe(401);
    expectDocumented('POST', '/sim', wrongKey);
  });

  it('403: a viewer, a read key, a key on a session-only path, a change without a recent passkey (stepUp)', async () => {
    const byViewer = await call('POST', '/api/sim', { cookie: viewer, json: activation(newIccid()) });
    expect(byViewer.status).toBe(403);
    expectDocumented('POST', '/sim', byViewer);
    const readKey = await newKey('read');
    const byReadKey = await call('POST', '/api/sim', { key: readKey, json: activation(newIccid()) });
    expect(byReadKey.status).toBe(403);
    expectDocumented('POST', '/sim', byReadKey);
    const keyOnFeedback = await call('POST', '/api/feedback', { key: readKey, json: { message: 'Hej' } });
    expect(keyOnFeedback.status).toBe(403);
    expectDocumented('POST', '/feedback', keyOnFeedback);
    // A person's own sessions take no key: the document says so (x-required-scope null, no apiKey security).
    expect(doc.paths['/sessions'].get['x-required-scope']).toBeNull();
    expect(doc.paths['/sessions'].get.security).toEqual([{ session: [] }]);
    const keyOnSessions = await call('GET', '/api/sessions', { key: await newKey('read') });
    expect(keyOnSessions.status).toBe(403);
    expectDocumented('GET', '/sessions', keyOnSessions);
    const notSteppedUp = await call('POST', '/api/company/apiKeys', {
      cookie: ownerNotSteppedUp,
      json: { name: 'utan-nyckel', scope: 'read' },
    });
    expect(notSteppedUp.status).toBe(403);
    expect(notSteppedUp.data.stepUp).toBe(true);
    expectDocumented('POST', '/company/apiKeys', notSteppedUp);
  });

  it('403 of a cross-site change', async () => {
    const res = await fetch(`${server.url}/api/sim`, {
      method: 'POST',
      headers: { cookie: member, 'content-type': 'application/json', origin: 'https://elsewhere.example' },
      body: JSON.stringify(activation(newIccid())),
    });
    const answer = { status: res.status, data: (await res.json()) as Json };
    expect(answer.status).toBe(403);
    expectDocumented('POST', '/sim', answer);
  });

  it('500 and 503: the one translation the REST door sends (an outage is tried for real in fault.test.ts)', () => {
    const fault = httpError(new Error('a bug'), 'req-1');
    expect(fault.status).toBe(500);
    expectDocumented('POST', '/sim', { status: fault.status, data: fault.body });
    const outage = httpError(Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' }), 'req-2');
    expect(outage.status).toBe(503);
    expect(outage.headers['Retry-After']).toBeTruthy();
    expectDocumented('POST', '/sim', { status: outage.status, data: outage.body });
    expect(resolve(doc.paths['/sim'].post.responses['503']).headers['Retry-After']).toBeTruthy();
  });

  it('404 and 409: a SIM that is not there, an ICCID already active', async () => {
    const missing = await call('GET', '/api/sim/2147483000', { cookie: member });
    expect(missing.status).toBe(404);
    expectDocumented('GET', '/sim/{id}', missing);
    const gone = await call('POST', '/api/sim/deactivate/2147483000', { cookie: member });
    expect(gone.status).toBe(404);
    expectDocumented('POST', '/sim/deactivate/{id}', gone);
    const iccid = newIccid();
    expect((await call('POST', '/api/sim', { cookie: member, json: activation(iccid) })).status).toBe(200);
    const again = await call('POST', '/api/sim', { cookie: member, json: activation(iccid) });
    expect(again.status).toBe(409);
    expectDocumented('POST', '/sim', again);
  });

  it('413: a body past the bound', async () => {
    const huge = await call('POST', '/api/sim', {
      cookie: member,
      json: { ...activation(newIccid()), invoiceLineNote: 'x'.repeat(150_000) },
    });
    expect(huge.status).toBe(413);
    expectDocumented('POST', '/sim', huge);
  });

  it('429 with Retry-After: a key past its requests per minute', async () => {
    const key = await newKey('read');
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    // The limit counts per minute: within 3 * RATE_LIMIT calls one minute holds more than the limit.
    for (let i = 0; i < 3 * RATE_LIMIT + 1 && !limited; i++) {
      const r = await call('GET', '/api/rate_plans', { key });
      if (r.status === 429) limited = r;
      else expectDocumented('GET', '/rate_plans', r);
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expectDocumented('GET', '/rate_plans', limited!);
  });
});

describe("real webhook deliveries fit the document's webhooks", () => {
  type Delivery = { headers: http.IncomingHttpHeaders; body: string };

  /** A receiver on 127.0.0.1 keeping each delivery's headers and raw body, answering 204. */
  async function receiver() {
    const got: Delivery[] = [];
    const rx = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`,
      got,
      close: () => new Promise<void>((r) => rx.close(() => r())),
    };
  }

  async function send(method: string, url: string, body?: unknown) {
    const res = await fetch(server.url + url, {
      method,
      headers: { cookie: owner, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await res.json()) as Json;
    expect(res.status, `${method} ${url}: ${JSON.stringify(data)}`).toBe(200);
    return data;
  }

  it('each event type the portal sends is a webhook, and a real delivery of each fits its schema and headers', async () => {
    const rx = await receiver();
    try {
      const types = [
        'sim.activated',
        'sim.updated',
        'sim.deactivated',
        'sim.paused',
        'sim.resumed',
        'bulk.completed',
        'usage.threshold_reached',
        'sim.silent',
      ];
      expect(Object.keys(doc.webhooks).sort()).toEqual([...types, 'webhook.test'].sort());
      const endpoint = await send('POST', '/api/company/webhooks', { url: rx.url, events: types });
      const sim = await send('POST', '/api/sim', activation(newIccid()));
      await send('PUT', '/api/sim/edit', { ...activation(sim.iccid), id: sim.id, invoiceLineMark: 'Ändrad' });
      await send('POST', `/api/sim/deactivate/${sim.id}`);
      await send('POST', '/api/sim/bulk', { ...activation(''), iccid: undefined, iccids: [newIccid(), newIccid()] });
      await send('POST', `/api/company/webhooks/test/${endpoint.id}`);
      // Issue 40: pause and resume, a usage rule crossed by a record, a silence rule past its deadline.
      const kept = await send('POST', '/api/sim', activation(newIccid()));
      await send('POST', `/api/sim/pause/${kept.id}`);
      await send('POST', `/api/sim/resume/${kept.id}`);
      const rule = { target: 'all', notifyWebhook: true };
      await send('POST', '/api/company/rules', {
        ...rule,
        name: 'Kontrakt 1 MB',
        condition: 'month_bytes',
        threshold: 1e6,
      });
      await send('POST', '/api/company/rules', { ...rule, name: 'Kontrakt tyst', condition: 'silent', threshold: 60 });
      const { iccid } = await send('GET', `/api/sim/${kept.id}`);
      const start = new Date(Date.now() - 2 * 3600_000);
      const record = { recordId: 'kontrakt-1', iccid, bytesUp: 1e6, bytesDown: 1e6, start: start.toISOString() };
      const taken = await ingestUsage(server.services.orm.em.fork(), 'kontrakt', [
        { ...record, end: new Date(start.getTime() + 60_000).toISOString() },
      ]);
      expect(taken.taken).toBe(1);
      await sweepSilence(server.services.orm.em.fork(), new Date());
      const wanted = [...types, 'webhook.test'];
      await expect
        .poll(() => new Set(rx.got.map((d) => JSON.parse(d.body).type)).size, { timeout: 30_000 })
        .toBe(wanted.length);

      for (const delivery of rx.got) {
        const body = JSON.parse(delivery.body) as Json;
        const op = doc.webhooks[body.type]?.post;
        expect(op, `${body.type} in webhooks`).toBeTruthy();
        const content = op.requestBody.content['application/json'];
        expect(fits(content.schema, body), `${body.type}: ${delivery.body}`).toBeNull();
        expect(fits(content.schema, content.example), `${body.type} example`).toBeNull();
        expect(delivery.headers['content-type']).toBe('application/json');
        for (const parameter of op.parameters.map(resolve)) {
          const value = delivery.headers[parameter.name.toLowerCase()];
          if (parameter.required) expect(value, `${body.type} ${parameter.name}`).toBeDefined();
          expect(fits(parameter.schema, value), `${body.type} ${parameter.name}: ${value}`).toBeNull();
        }
        // The signature is what the document says: the HMAC of "<t>.<raw body>" with the endpoint's secret.
        const header = String(delivery.headers['x-sim-portal-signature']);
        const t = /^t=(\d+)/.exec(header)![1];
        const mac = createHmac('sha256', endpoint.secret as string)
          .update(`${t}.${delivery.body}`)
          .digest('hex');
        expect(header).toContain(`v1=${mac}`);
        expect(op.responses['2XX']).toBeTruthy();
      }
    } finally {
      await rx.close();
    }
  });
});
