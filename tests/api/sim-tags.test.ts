// Long: one resource, its doors and rules: tagging, the list by tag, the company's tags and activation with tags.
// POST /api/sim/tags and the tags on each SIM (issue 40) through the REST door, every answer checked against the
// OpenAPI document (tests/helpers/openapi-setup.ts): tags added and removed on a list of ids and on every SIM a
// search finds, texts normalized, a repeat changing nothing, the cap per SIM, another company's and a deactivated
// SIM never touched, refusals as 400 { error } naming the field, and the roles and key scopes that may tag.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { TAG_MAX, TAGS_PER_CALL, TAGS_PER_SIM } from '#domain/sims/tags.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

// Webhook endpoints on loopback (nothing listens there: the events are read where they are written).
const portal = useScreens({ browser: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946588');

type Answer = { status: number; data: any };
async function call(method: string, path: string, auth: string, body?: unknown): Promise<Answer> {
  // A session's cookie header names the cookie (name=value); an API key is sent as a bearer token.
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
const tags = (auth: string, body: unknown) => call('POST', '/sim/tags', auth, body);
const tagsOf = async (auth: string, id: number): Promise<string[]> => (await call('GET', `/sim/${id}`, auth)).data.tags;

let owner: string;
let viewer: string;
let otherOwner: string;
const mine: number[] = [];
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

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Tora Taggare', email: 'tora@demo.test', company: demo, role: 'owner' });
  e.create(User, { name: 'Vera Visare', email: 'vera@demo.test', company: demo, role: 'viewer' });
  const other = e.create(Company, {
    name: 'Taggfria AB',
    customerNumber: `TAG-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  e.create(User, { name: 'Olle Annan', email: 'olle@taggfria.se', company: other, role: 'owner' });
  await e.flush();
  owner = await portal.server.sessionCookie('tora@demo.test');
  viewer = await portal.server.sessionCookie('vera@demo.test');
  otherOwner = await portal.server.sessionCookie('olle@taggfria.se');
  for (const mark of ['Kylbil Nord', 'Kylbil Syd', 'Kylbil Väst', 'Kontor']) mine.push(await activate(owner, mark));
  foreign = await activate(otherOwner, 'Kylbil Nord');
});

describe('POST /api/sim/tags', () => {
  it('adds tags to a list of SIMs, trimmed and with one space inside, shown in text order on each SIM', async () => {
    const [a, b] = mine as [number, number];
    const r = await tags(owner, { ids: [a, b], add: ['  Göteborg   Nord ', 'Test', 'Test'] });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ success: true, changed: 2, full: 0 });
    expect(await tagsOf(owner, a)).toEqual(['Göteborg Nord', 'Test']);
    const list = (await call('GET', '/sim/all?limit=50', owner)).data as Array<{ id: number; tags: string[] }>;
    expect(list.find((s) => s.id === b)?.tags).toEqual(['Göteborg Nord', 'Test']);
    expect(list.find((s) => s.id === mine[3])?.tags).toEqual([]);
    // The same call again changes nothing.
    expect((await tags(owner, { ids: [a, b], add: ['Test'] })).data.changed).toBe(0);
  });

  it('removes tags; a tag both added and removed in one call is added', async () => {
    const [a, b] = mine as [number, number];
    const r = await tags(owner, { ids: [a], remove: ['Test', 'Finns inte'] });
    expect(r.data).toEqual({ success: true, changed: 1, full: 0 });
    expect(await tagsOf(owner, a)).toEqual(['Göteborg Nord']);
    const both = await tags(owner, { ids: [a, b], add: ['Test'], remove: ['Test', 'Göteborg Nord'] });
    expect(both.data.changed).toBe(2);
    expect(await tagsOf(owner, a)).toEqual(['Test']);
    expect(await tagsOf(owner, b)).toEqual(['Test']);
  });

  it('tags every active SIM a search finds, and only the company’s own', async () => {
    const r = await tags(owner, { q: 'kylbil', add: ['Kylbilar'] });
    expect(r.status).toBe(200);
    expect(r.data.changed).toBe(3);
    for (const id of mine.slice(0, 3)) expect(await tagsOf(owner, id)).toContain('Kylbilar');
    expect(await tagsOf(owner, mine[3] as number)).not.toContain('Kylbilar');
    expect(await tagsOf(otherOwner, foreign)).toEqual([]);
    // q "" is every active SIM of the company (the demo's too), still none of another company's.
    const all = await tags(owner, { q: '', add: ['Flottan'] });
    expect(all.data.changed).toBeGreaterThan(4);
    expect(await tagsOf(otherOwner, foreign)).toEqual([]);
    expect((await tags(owner, { q: '', remove: ['Flottan'] })).data.changed).toBe(all.data.changed);
  });

  it('narrows a search by the list’s tags and state, as GET /api/sim/all does ("all that match" under a filter)', async () => {
    const [a, b, c] = mine as [number, number, number];
    expect((await tags(owner, { ids: [a, b], add: ['Smal'] })).status).toBe(200);
    expect((await call('POST', `/sim/pause/${b}`, owner)).status).toBe(200);
    // Every SIM with the tag: the two, nothing else of the company.
    const tagged = await tags(owner, { q: '', tag: ['Smal'], add: ['Smalare'] });
    expect(tagged.data).toEqual({ success: true, changed: 2, full: 0 });
    expect(await tagsOf(owner, c)).not.toContain('Smalare');
    // With the state too: the paused one of them only; the search's text narrows as well.
    const paused = await tags(owner, { q: '', tag: ['Smal'], status: 'paused', add: ['Pausgrupp'] });
    expect(paused.data.changed).toBe(1);
    expect(await tagsOf(owner, b)).toContain('Pausgrupp');
    expect(await tagsOf(owner, a)).not.toContain('Pausgrupp');
    expect((await tags(owner, { q: 'Syd', tag: ['Smal'], status: 'active', add: ['Ingen'] })).data.changed).toBe(0);
    // The same SIMs GET /api/sim/all lists with the same narrowing.
    const listed = (await call('GET', '/sim/all?tag=Smal&status=active', owner)).data as Array<{ id: number }>;
    expect(listed.map((s) => s.id)).toEqual([a]);
    // The narrowing is a search's: with ids it is refused, naming the field.
    const r = await tags(owner, { ids: [a], tag: ['Smal'], add: ['X'] });
    expect(r.status).toBe(400);
    expect(r.data.error).toMatch(/tag och status avgränsar en sökning/);
    expect((await tags(owner, { q: '', status: 'stopped', add: ['X'] })).status).toBe(400);
    expect((await call('POST', `/sim/resume/${b}`, owner)).status).toBe(200);
    for (const tag of ['Smal', 'Smalare', 'Pausgrupp']) await tags(owner, { q: '', remove: [tag] });
  });

  it('never touches another company’s SIM or a deactivated one given by id', async () => {
    const gone = await activate(owner, 'Avslutas');
    expect((await call('POST', `/sim/deactivate/${gone}`, owner)).status).toBe(200);
    const r = await tags(owner, { ids: [foreign, gone], add: ['Intrång'] });
    expect(r.status).toBe(200);
    expect(r.data.changed).toBe(0);
    expect(await tagsOf(otherOwner, foreign)).toEqual([]);
  });

  it(`keeps a SIM at ${TAGS_PER_SIM} tags at most: one that would get more is left as it was, and counted`, async () => {
    const id = await activate(owner, 'Full');
    const many = Array.from({ length: TAGS_PER_SIM }, (_, i) => `T${String(i).padStart(2, '0')}`);
    for (let i = 0; i < many.length; i += TAGS_PER_CALL)
      expect((await tags(owner, { ids: [id], add: many.slice(i, i + TAGS_PER_CALL) })).status).toBe(200);
    expect(await tagsOf(owner, id)).toHaveLength(TAGS_PER_SIM);
    const over = await tags(owner, { ids: [id, mine[3] as number], add: ['En till'] });
    expect(over.data).toEqual({ success: true, changed: 1, full: 1 });
    expect(await tagsOf(owner, id)).not.toContain('En till');
    // Making room in the same call fits.
    const swap = await tags(owner, { ids: [id], add: ['En till'], remove: ['T00'] });
    expect(swap.data).toEqual({ success: true, changed: 1, full: 0 });
    expect(await tagsOf(owner, id)).toContain('En till');
  });

  it('refuses what it cannot do with 400 { error } naming the field, and changes nothing', async () => {
    const id = await activate(owner, 'Orörd');
    const refused = async (body: unknown, match: RegExp) => {
      const r = await tags(owner, body);
      expect(r.status).toBe(400);
      expect(r.data.error).toMatch(match);
    };
    await refused({ add: ['X'] }, /ids.*q/);
    await refused({ ids: [id], q: 'x', add: ['X'] }, /ids.*q/);
    await refused({ ids: [id] }, /add.*remove/);
    await refused({ ids: [id], add: ['   '] }, /tom/);
    await refused({ ids: [id], add: ['x'.repeat(TAG_MAX + 1)] }, new RegExp(`högst ${TAG_MAX} tecken`));
    await refused({ ids: [id], add: ['klocka\u0007'] }, /styrtecken/);
    await refused({ ids: [id], add: Array.from({ length: TAGS_PER_CALL + 1 }, (_, i) => `t${i}`) }, /Högst 20/);
    await refused({ ids: [], add: ['X'] }, /ids/);
    expect(await tagsOf(owner, id)).toEqual([]);
  });

  it('is for those who may change SIMs: a viewer and a read key get 403, a write key tags', async () => {
    const id = await activate(owner, 'Nycklar');
    expect((await tags(viewer, { ids: [id], add: ['Visning'] })).status).toBe(403);
    const key = async (scope: string) => {
      const made = await call('POST', '/company/apiKeys', owner, { name: `Taggar ${scope}`, scope });
      expect(made.status).toBe(200);
      return made.data.key as string;
    };
    const read = await key('read');
    expect((await tags(read, { ids: [id], add: ['Läs'] })).status).toBe(403);
    expect(await tagsOf(read, id)).toEqual([]);
    const write = await key('write');
    expect((await tags(write, { ids: [id], add: ['Skriv'] })).data.changed).toBe(1);
    expect(await tagsOf(read, id)).toEqual(['Skriv']);
  });
});

describe('GET /api/sim/all?tag=', () => {
  it('lists the SIMs with every tag asked for, keeps the tags in the next page’s link, and refuses more than five', async () => {
    const [a, b, c] = mine as [number, number, number];
    await tags(owner, { ids: [a, b, c], add: ['Paket'] });
    await tags(owner, { ids: [b, c], add: ['Paket 2'] });
    const one = await call('GET', '/sim/all?tag=Paket', owner);
    expect(one.status).toBe(200);
    expect((one.data as Array<{ id: number }>).map((s) => s.id).sort()).toEqual([a, b, c].sort());
    const both = await call('GET', `/sim/all?tag=Paket&tag=${encodeURIComponent('Paket 2')}`, owner);
    expect((both.data as Array<{ id: number }>).map((s) => s.id).sort()).toEqual([b, c].sort());
    // The other company asks for the same tag: none of these.
    expect((await call('GET', '/sim/all?tag=Paket', otherOwner)).data).toEqual([]);
    // A page of one: the next page's link carries the tags.
    const res = await fetch(`${portal.server.url}/api/sim/all?tag=Paket&tag=Paket%202&limit=1`, {
      headers: { cookie: owner },
    });
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? '';
    expect(new URL(next).searchParams.getAll('tag')).toEqual(['Paket', 'Paket 2']);
    const second = await call('GET', next.replace(/^.*\/api/, ''), owner);
    expect((second.data as unknown[]).length).toBe(1);
    const six = Array.from({ length: 6 }, (_, i) => `tag=t${i}`).join('&');
    const refused = await call('GET', `/sim/all?${six}`, owner);
    expect(refused.status).toBe(400);
    expect(refused.data.error).toMatch(/Högst 5 taggar/);
  });
});

describe('the company’s tags', () => {
  it('lists them in text order, renames one on every SIM (one that has both keeps one) and deletes one', async () => {
    const id1 = await activate(owner, 'Byt namn 1');
    const id2 = await activate(owner, 'Byt namn 2');
    await tags(owner, { ids: [id1, id2], add: ['Gbg'] });
    await tags(owner, { ids: [id2], add: ['Göteborg'] });
    const listed = (await call('GET', '/tags', owner)).data.tags as string[];
    expect(listed).toEqual([...listed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(listed).toEqual(expect.arrayContaining(['Gbg', 'Göteborg']));
    // Another company's tags are not in its list.
    expect((await call('GET', '/tags', otherOwner)).data.tags).toEqual([]);
    const renamed = await call('POST', '/tags/rename', owner, { from: 'Gbg', to: ' Göteborg ' });
    expect(renamed.data).toEqual({ success: true, changed: 2 });
    expect(await tagsOf(owner, id1)).toEqual(['Göteborg']);
    expect(await tagsOf(owner, id2)).toEqual(['Göteborg']);
    expect((await call('GET', '/tags', owner)).data.tags).not.toContain('Gbg');
    expect((await call('POST', '/tags/rename', viewer, { from: 'Göteborg', to: 'X' })).status).toBe(403);
    expect((await call('POST', '/tags/rename', owner, { from: 'Göteborg', to: '' })).status).toBe(400);
    const deleted = await call('POST', '/tags/delete', owner, { tag: 'Göteborg' });
    expect(deleted.data.changed).toBeGreaterThanOrEqual(2);
    expect(await tagsOf(owner, id2)).toEqual([]);
    expect((await call('GET', '/tags', owner)).data.tags).not.toContain('Göteborg');
  });
});

describe('activation with tags', () => {
  it('tags a SIM activated alone or in a bulk list, and sim.activated carries them', async () => {
    const hook = await call('POST', '/company/webhooks', owner, {
      url: 'http://127.0.0.1:9/hook',
      events: ['sim.activated'],
    });
    expect(hook.status).toBe(200);
    const one = await call('POST', '/sim', owner, {
      iccid: newIccid(),
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: 'Med taggar',
      invoiceLineNote: '',
      tags: ['Södra', ' Kylbilar ', 'Södra'],
    });
    expect(one.status).toBe(200);
    expect(await tagsOf(owner, one.data.id)).toEqual(['Kylbilar', 'Södra']);
    const iccids = [newIccid(), newIccid()];
    const bulk = await call('POST', '/sim/bulk', owner, {
      iccids,
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      tags: ['Leverans 7'],
    });
    expect(bulk.status).toBe(200);
    const ids = (bulk.data.results as Array<{ simId: number }>).map((r) => r.simId);
    for (const id of ids) expect(await tagsOf(owner, id)).toEqual(['Leverans 7']);
    // The events as written in the outbox, one per SIM.
    const events = await em().execute<Array<{ data: { sim: { id: number; tags: string[] } } | string }>>(
      `select data from webhook_event where type = 'sim.activated' order by created_at`,
    );
    const byId = new Map(
      events
        .map(
          (e) => (typeof e.data === 'string' ? JSON.parse(e.data) : e.data) as { sim: { id: number; tags: string[] } },
        )
        .map((d) => [d.sim.id, d.sim.tags]),
    );
    expect(byId.get(one.data.id)).toEqual(['Kylbilar', 'Södra']);
    for (const id of ids) expect(byId.get(id)).toEqual(['Leverans 7']);
    // A bad tag refuses the activation, naming the field, and activates nothing.
    const iccid = newIccid();
    const refused = await call('POST', '/sim', owner, {
      iccid,
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: '',
      invoiceLineNote: '',
      tags: ['x'.repeat(41)],
    });
    expect(refused.status).toBe(400);
    expect(refused.data.error).toMatch(/högst 40 tecken/);
    expect((await call('GET', `/sim/all?q=${iccid}`, owner)).data).toEqual([]);
  });

  it('tags each SIM of a bulk list with its row’s tags and the list’s, the webhook per SIM, within the cap', async () => {
    const [a, b, c] = [newIccid(), newIccid(), newIccid()];
    const bulk = await call('POST', '/sim/bulk', owner, {
      rows: [
        { iccid: a, tags: ['Rad A', ' Kylbilar '] },
        { iccid: b, tags: [] },
        { iccid: c, tags: ['Leverans 8'] },
      ],
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      tags: ['Leverans 8'],
    });
    expect(bulk.status).toBe(200);
    const [idA, idB, idC] = (bulk.data.results as Array<{ simId: number }>).map((r) => r.simId);
    expect(await tagsOf(owner, idA!)).toEqual(['Kylbilar', 'Leverans 8', 'Rad A']);
    expect(await tagsOf(owner, idB!)).toEqual(['Leverans 8']);
    expect(await tagsOf(owner, idC!)).toEqual(['Leverans 8']);
    const events = await em().execute<Array<{ data: { sim: { id: number; tags: string[] } } | string }>>(
      `select data from webhook_event where type = 'sim.activated'`,
    );
    const byId = new Map(
      events
        .map(
          (e) => (typeof e.data === 'string' ? JSON.parse(e.data) : e.data) as { sim: { id: number; tags: string[] } },
        )
        .map((d) => [d.sim.id, d.sim.tags]),
    );
    expect(byId.get(idA!)).toEqual(['Kylbilar', 'Leverans 8', 'Rad A']);
    expect(byId.get(idB!)).toEqual(['Leverans 8']);
    expect(byId.get(idC!)).toEqual(['Leverans 8']);

    // A row's tags and the list's together over TAGS_PER_SIM: the list is refused naming the row, nothing activated.
    const list = Array.from({ length: TAGS_PER_CALL }, (_, i) => `Lista ${i}`);
    const row = Array.from({ length: TAGS_PER_SIM - TAGS_PER_CALL + 1 }, (_, i) => `Rad ${i}`);
    const [d, e] = [newIccid(), newIccid()];
    const full = await call('POST', '/sim/bulk', owner, {
      rows: [{ iccid: d }, { iccid: e, tags: row }],
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      tags: list,
    });
    expect(full.status).toBe(400);
    expect(full.data.error).toMatch(new RegExp(`Rad 2: .*${TAGS_PER_SIM}`));
    expect((await call('GET', `/sim/all?q=${d}`, owner)).data).toEqual([]);
    // Exactly TAGS_PER_SIM is fine: the SIM has them all.
    const fits = await call('POST', '/sim/bulk', owner, {
      rows: [{ iccid: e, tags: row.slice(1) }],
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      tags: list,
    });
    expect(fits.status).toBe(200);
    expect(await tagsOf(owner, fits.data.results[0].simId)).toHaveLength(TAGS_PER_SIM);
    // A bad tag of a row refuses the list.
    const bad = await call('POST', '/sim/bulk', owner, {
      rows: [{ iccid: d, tags: ['x'.repeat(TAG_MAX + 1)] }],
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
    });
    expect(bad.status).toBe(400);
    expect(bad.data.error).toMatch(/högst 40 tecken/);
  });
});
