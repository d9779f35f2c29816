// Long: one state and its doors: pause and resume one SIM and many, the list by state, who did it, the events.
// The paused state (issue 40, docs/decisions/037) through the REST door, every answer checked against the OpenAPI
// document: POST /api/sim/pause/{id} and /resume/{id}, the bulk paths, `status` on each SIM, GET /api/sim/all
// listing active and paused SIMs (`?status=` to choose), who paused it on the SIM, the history events, the trail,
// the webhook events sim.paused / sim.resumed in the outbox, a repeat changing nothing, another company's SIM and a
// deactivated one never touched, usage of a paused SIM still taken in, and the roles and key scopes that may pause.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { earlierToday } from '#tests/helpers/usage.ts';

const portal = useScreens({ browser: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946577');

type Answer = { status: number; data: any };
async function call(method: string, path: string, auth: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = auth.includes('=') ? { cookie: auth } : { authorization: `Bearer ${auth}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + '/api' + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : {} };
}
const sim = async (auth: string, id: number) => (await call('GET', `/sim/${id}`, auth)).data;
async function listed(auth: string, query = ''): Promise<Array<readonly [number, string]>> {
  const r = await call('GET', `/sim/all?limit=50${query}`, auth);
  expect(r.status, JSON.stringify(r.data)).toBe(200);
  return (r.data as Array<{ id: number; status: string }>).map((s) => [s.id, s.status] as const);
}

let owner: string;
let viewer: string;
let otherOwner: string;
let foreign: number;

async function activate(auth: string, mark: string): Promise<number> {
  const r = await call('POST', '/sim', auth, {
    iccid: newIccid(),
    dataLimit: 1000,
    callAndSms: true,
    roaming: false,
    invoiceLineMark: mark,
    invoiceLineNote: '',
  });
  expect(r.status).toBe(200);
  return r.data.id as number;
}

/** The outbox's events of a type for one SIM, oldest first. */
async function events(type: string, id: number): Promise<Array<{ sim: Record<string, unknown> }>> {
  const rows = await em().execute<Array<{ data: unknown }>>(
    `select data from webhook_event where type = ? order by created_at, id`,
    [type],
  );
  return rows
    .map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as { sim: Record<string, unknown> })
    .filter((d) => d.sim.id === id);
}

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Paula Paus', email: 'paula@demo.test', company: demo, role: 'owner' });
  e.create(User, { name: 'Vide Visare', email: 'vide@demo.test', company: demo, role: 'viewer' });
  const other = e.create(Company, {
    name: 'Pausfria AB',
    customerNumber: `PAUS-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  e.create(User, { name: 'Otto Annan', email: 'otto@pausfria.se', company: other, role: 'owner' });
  await e.flush();
  owner = await portal.server.sessionCookie('paula@demo.test');
  viewer = await portal.server.sessionCookie('vide@demo.test');
  otherOwner = await portal.server.sessionCookie('otto@pausfria.se');
  foreign = await activate(otherOwner, 'Annans');
  const hook = await call('POST', '/company/webhooks', owner, {
    url: 'http://127.0.0.1:9/hook',
    events: ['sim.paused', 'sim.resumed'],
  });
  expect(hook.status).toBe(200);
});

describe('POST /api/sim/pause/{id} and /resume/{id}', () => {
  it('pauses a SIM: status paused with when and who, in the list and its history; a repeat changes nothing', async () => {
    const id = await activate(owner, 'Kylbil 1');
    expect((await sim(owner, id)).status).toBe('active');
    const r = await call('POST', `/sim/pause/${id}`, owner);
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ success: true, changed: true });
    const paused = await sim(owner, id);
    expect(paused.status).toBe('paused');
    expect(paused.pausedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(paused.pausedBy).toEqual({ kind: 'user', name: 'Paula Paus' });
    expect(paused.history[0]).toMatchObject({ kind: 'paused', by: 'Paula Paus', after: { status: 'paused' } });
    // Still in the fleet: the list shows it, paused.
    expect(await listed(owner)).toContainEqual([id, 'paused']);
    const again = await call('POST', `/sim/pause/${id}`, owner);
    expect(again.data).toEqual({ success: true, changed: false });
    expect((await sim(owner, id)).history.filter((h: { kind: string }) => h.kind === 'paused')).toHaveLength(1);
    expect(await events('sim.paused', id)).toHaveLength(1);
  });

  it('resumes it at once: active again, its history and events say so; resuming an active SIM changes nothing', async () => {
    const id = await activate(owner, 'Kylbil 2');
    await call('POST', `/sim/pause/${id}`, owner);
    const r = await call('POST', `/sim/resume/${id}`, owner);
    expect(r.data).toEqual({ success: true, changed: true });
    const back = await sim(owner, id);
    expect(back).toMatchObject({ status: 'active', pausedAt: null, pausedBy: null });
    expect(back.history.slice(0, 2).map((h: { kind: string }) => h.kind)).toEqual(['resumed', 'paused']);
    expect((await call('POST', `/sim/resume/${id}`, owner)).data).toEqual({ success: true, changed: false });
    const [pausedEvent] = await events('sim.paused', id);
    const [resumedEvent] = await events('sim.resumed', id);
    expect(pausedEvent?.sim).toMatchObject({ id, by: { kind: 'user', name: 'Paula Paus' }, tags: [] });
    expect(pausedEvent?.sim.pausedAt).toMatch(/Z$/);
    expect(resumedEvent?.sim).toMatchObject({ id, by: { kind: 'user', name: 'Paula Paus' } });
    expect(resumedEvent?.sim.resumedAt).toMatch(/Z$/);
  });

  it('writes the trail: who paused and resumed which SIM', async () => {
    const id = await activate(owner, 'Spår');
    await call('POST', `/sim/pause/${id}`, owner);
    await call('POST', `/sim/resume/${id}`, owner);
    const rows = await em().execute<Array<{ action: string; kind: string }>>(
      `select action, kind from audit_event where target_type = 'Sim' and target_id = ? order by id`,
      [String(id)],
    );
    expect(rows.map((r) => r.action)).toEqual(['simActivated', 'simPaused', 'simResumed']);
  });

  it("answers 404 for another company's SIM and a deactivated one, and touches neither", async () => {
    expect((await call('POST', `/sim/pause/${foreign}`, owner)).status).toBe(404);
    expect((await sim(otherOwner, foreign)).status).toBe('active');
    const gone = await activate(owner, 'Avslutad');
    expect((await call('POST', `/sim/deactivate/${gone}`, owner)).status).toBe(200);
    expect((await call('POST', `/sim/pause/${gone}`, owner)).status).toBe(404);
    expect((await call('POST', `/sim/resume/${gone}`, owner)).status).toBe(404);
  });

  it('deactivates a paused SIM (deactivation is final from either state)', async () => {
    const id = await activate(owner, 'Pausad sedan avslutad');
    await call('POST', `/sim/pause/${id}`, owner);
    expect((await call('POST', `/sim/deactivate/${id}`, owner)).status).toBe(200);
    expect((await call('GET', `/sim/${id}`, owner)).status).toBe(404);
    expect(await listed(owner)).not.toContainEqual([id, expect.anything()]);
  });

  it('is for those who may change SIMs: a viewer and a read key get 403; a write key pauses, named as the key', async () => {
    const id = await activate(owner, 'Nyckel');
    expect((await call('POST', `/sim/pause/${id}`, viewer)).status).toBe(403);
    const key = async (scope: string) => {
      const made = await call('POST', '/company/apiKeys', owner, { name: `Paus ${scope}`, scope });
      expect(made.status).toBe(200);
      return made.data.key as string;
    };
    const read = await key('read');
    expect((await call('POST', `/sim/pause/${id}`, read)).status).toBe(403);
    expect((await sim(read, id)).status).toBe('active');
    const write = await key('write');
    expect((await call('POST', `/sim/pause/${id}`, write)).data.changed).toBe(true);
    const paused = await sim(read, id);
    expect(paused.pausedBy).toEqual({ kind: 'apiKey', name: 'Paus write' });
    expect(paused.history[0].by).toBe('API-nyckel Paus write');
  });
});

describe('POST /api/sim/bulk/pause and /resume', () => {
  it('pauses a list in one call, each id with its outcome, and resumes it', async () => {
    const a = await activate(owner, 'Lista A');
    const b = await activate(owner, 'Lista B');
    await call('POST', `/sim/pause/${b}`, owner);
    const r = await call('POST', '/sim/bulk/pause', owner, { ids: [a, b, foreign, a] });
    expect(r.status).toBe(200);
    expect(r.data.results).toEqual([
      { id: a, outcome: 'paused' },
      { id: b, outcome: 'alreadyPaused' },
      { id: foreign, outcome: 'notFound' },
    ]);
    expect(r.data.counts).toEqual({ paused: 1, alreadyPaused: 1, notFound: 0 + 1 });
    expect((await sim(owner, a)).status).toBe('paused');
    expect((await sim(otherOwner, foreign)).status).toBe('active');
    const back = await call('POST', '/sim/bulk/resume', owner, { ids: [a, b] });
    expect(back.data.counts).toEqual({ resumed: 2, notPaused: 0, notFound: 0 });
    const none = await call('POST', '/sim/bulk/resume', owner, { ids: [a] });
    expect(none.data.results).toEqual([{ id: a, outcome: 'notPaused' }]);
    const trail = await em().execute<Array<{ action: string }>>(
      `select action from audit_event where action in ('bulkPause', 'bulkResume') order by id`,
    );
    expect(trail.map((t) => t.action)).toEqual(['bulkPause', 'bulkResume', 'bulkResume']);
  });

  it('refuses an empty or too long list with 400 { error }', async () => {
    expect((await call('POST', '/sim/bulk/pause', owner, { ids: [] })).status).toBe(400);
    const long = await call('POST', '/sim/bulk/pause', owner, {
      ids: Array.from({ length: 10_001 }, (_, i) => i + 1),
    });
    expect(long.status).toBe(400);
    expect(long.data.error).toMatch(/högst 10.000/);
  });
});

describe('GET /api/sim/all?status=', () => {
  it('lists active and paused SIMs by default, one state when asked, keeps it in the next link, refuses others', async () => {
    const a = await activate(owner, 'Tillstånd A');
    const b = await activate(owner, 'Tillstånd B');
    const c = await activate(owner, 'Tillstånd C');
    await call('POST', '/sim/bulk/pause', owner, { ids: [a, c] });
    const all = await listed(owner);
    expect(all).toEqual(
      expect.arrayContaining([
        [a, 'paused'],
        [b, 'active'],
        [c, 'paused'],
      ]),
    );
    const paused = await listed(owner, '&status=paused');
    expect(paused.every(([, s]) => s === 'paused')).toBe(true);
    expect(paused.map(([id]) => id)).toEqual(expect.arrayContaining([c, a]));
    // Newest first, as the whole list.
    expect(paused.findIndex(([id]) => id === c)).toBeLessThan(paused.findIndex(([id]) => id === a));
    const active = await listed(owner, '&status=active');
    expect(active.every(([, s]) => s === 'active')).toBe(true);
    expect(active).toContainEqual([b, 'active']);
    // With a search too.
    const searched = await listed(owner, `&status=paused&q=${encodeURIComponent('Tillstånd')}`);
    expect(searched.map(([id]) => id).sort()).toEqual([a, c].sort());
    const res = await fetch(`${portal.server.url}/api/sim/all?status=paused&limit=1`, { headers: { cookie: owner } });
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? '';
    expect(new URL(next).searchParams.get('status')).toBe('paused');
    const refused = await call('GET', '/sim/all?status=deactivated', owner);
    expect(refused.status).toBe(400);
    expect(refused.data.error).toMatch(/active eller paused/);
  });

  it('exports one state: the list file has a Status column and ?status= as the list', async () => {
    const id = await activate(owner, 'Export paus');
    await call('POST', `/sim/pause/${id}`, owner);
    const res = await fetch(`${portal.server.url}/api/sim/export?format=csv&status=paused`, {
      headers: { cookie: owner },
    });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const head = lines[0]?.split(';') ?? [];
    const status = head.indexOf('Status');
    expect(status).toBeGreaterThan(0);
    expect(lines.slice(1).every((l) => l.split(';')[status] === 'Pausad')).toBe(true);
    expect(lines.some((l) => l.includes('Export paus'))).toBe(true);
    const bad = await fetch(`${portal.server.url}/api/sim/export?format=csv&status=gone`, {
      headers: { cookie: owner },
    });
    expect(bad.status).toBe(400);
  });
});

describe('usage of a paused SIM', () => {
  it('is still taken in (the network may send its last records late)', async () => {
    const id = await activate(owner, 'Sen förbrukning');
    const { iccid } = await sim(owner, id);
    await call('POST', `/sim/pause/${id}`, owner);
    const now = Date.now();
    const start = earlierToday(now, 30 * 60_000);
    const counts = await ingestUsage(em(), 'paus-test', [
      {
        recordId: `paus-${id}`,
        iccid,
        start: new Date(start).toISOString(),
        end: new Date(Math.min(start + 15 * 60_000, now)).toISOString(),
        bytesUp: 1000,
        bytesDown: 2000,
      },
    ]);
    expect(counts.taken).toBe(1);
    const after = await sim(owner, id);
    expect(after.status).toBe('paused');
    expect(after.usage.monthBytes).toBe(3000);
  });
});
