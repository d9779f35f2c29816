// Long: both bulk paths share the callers, the error shape and the list helpers.
// The bulk REST paths over HTTP: POST /api/sim/bulk and /api/sim/bulk/deactivate, good and bad input,
// the one error shape, company scope, the summary toast and parallel overlapping lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tBulk } from '#domain/texts/bulk.ts';
import { findSession, readSessionCookie } from '#server/auth/sessions.ts';
import { Company, Sim, SimEvent, User } from '#server/db/entities.ts';
import { newToast, type HubEvent } from '#server/events/hub.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let anna: string;
let bo: string;
const newIccid = iccidFactory('8946333');
const events: HubEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const other = em.create(Company, { name: 'Bolag B', customerNumber: 'B-1', invoiceNote: '' });
  em.create(User, { name: 'Bo', email: 'bo@b.se', company: other });
  await em.flush();
  anna = await portal.server.sessionCookie('anna@demo.test');
  bo = await portal.server.sessionCookie('bo@b.se');
  unsubscribe = portal.server.services.hub.subscribe((e) => events.push(e));
});
afterAll(() => unsubscribe?.());

async function post(path: string, cookie: string | null, json: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const res = await fetch(portal.server.url + path, { method: 'POST', headers, body: JSON.stringify(json) });
  const text = await res.text();
  // Never a stack trace, a path or SQL in an answer.
  expect(text).not.toMatch(/\n\s+at |node_modules|select .* from|insert into|deadlock/i);
  return { status: res.status, data: JSON.parse(text) };
}

const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Låda', invoiceLineNote: '' };
const bulk = (cookie: string, iccids: unknown, extra: object = {}) =>
  post('/api/sim/bulk', cookie, { ...plan, iccids, ...extra });
const activeCount = (iccids: string[]) =>
  portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: iccids }, status: 'active' });

/** The toast titles published for a user until a marker sent now arrives (events arrive in order). */
async function toastsSoFar(cookie: string): Promise<string[]> {
  const session = (await findSession(portal.server.services.orm.em.fork(), readSessionCookie(cookie, false)!))!;
  const marker = newToast('info', `marker-${Math.random()}`, '');
  await portal.server.services.hub.publish({ kind: 'toast', userId: session.userId, toast: marker });
  const titles = () =>
    events.flatMap((e) => (e.kind === 'toast' && e.userId === session.userId ? [e.toast.title] : []));
  await expect.poll(() => titles().includes(marker.title), { timeout: 10_000 }).toBe(true);
  const seen = titles().filter((x) => x !== marker.title);
  events.length = 0;
  return seen;
}

describe('POST /api/sim/bulk', () => {
  it('answers an outcome per row with counts, and one summary toast', async () => {
    await toastsSoFar(anna);
    const [a, b, mine, theirs] = [newIccid(), newIccid(), newIccid(), newIccid()];
    expect((await post('/api/sim', anna, { ...plan, iccid: mine })).status).toBe(200);
    expect((await post('/api/sim', bo, { ...plan, iccid: theirs })).status).toBe(200);
    await toastsSoFar(anna);
    const wrongCheck = b.slice(0, 19) + String((Number(b[19]) + 1) % 10);

    const r = await bulk(anna, [a, `${a.slice(0, 10)} ${a.slice(10)}`, b.slice(0, 18), wrongCheck, mine, theirs, b]);
    expect(r.status).toBe(200);
    expect(r.data.results.map((x: any) => [x.iccid, x.outcome])).toEqual([
      [a, 'activated'],
      [a, 'duplicateInList'],
      [b.slice(0, 18), 'invalid'],
      [wrongCheck, 'invalid'],
      [mine, 'alreadyActive'],
      [theirs, 'activeElsewhere'],
      [b, 'activated'],
    ]);
    expect(r.data.results[2].message).toBe('ICCID ska vara exakt 20 siffror.');
    expect(r.data.results[3].message).toMatch(/kontrollsiffra/);
    expect(r.data.results[5]).toEqual({ iccid: theirs, outcome: 'activeElsewhere', message: tBulk.activeElsewhere });
    expect(JSON.stringify(r.data)).not.toMatch(/Bolag B|B-1|"Bo"/);
    expect(r.data.counts).toEqual({
      activated: 2,
      ready: 0,
      invalid: 2,
      duplicateInList: 1,
      alreadyActive: 1,
      activeElsewhere: 1,
    });
    const sim = await post('/api/sim/bulk', anna, { ...plan, iccids: [a] }); // repeat
    expect(sim.data.results).toEqual([{ iccid: a, outcome: 'alreadyActive', message: tBulk.alreadyActive }]);
    expect(await toastsSoFar(anna)).toEqual([tBulk.activatedTitle(2), tBulk.activatedTitle(0)]);
    const detail = await fetch(`${portal.server.url}/api/sim/${r.data.results[0].simId}`, {
      headers: { cookie: anna },
    });
    expect((await detail.json()).history.map((h: any) => h.kind)).toEqual(['activated']);
  });

  it('dryRun is the preview: "ready" rows, nothing stored, no toast', async () => {
    await toastsSoFar(anna);
    const list = [newIccid(), newIccid()];
    const events = await portal.server.services.orm.em.fork().count(SimEvent, {});
    const r = await bulk(anna, list, { dryRun: true });
    expect(r.status).toBe(200);
    expect(r.data.results).toEqual(list.map((iccid) => ({ iccid, outcome: 'ready' })));
    expect(r.data.counts.ready).toBe(2);
    expect(await activeCount(list)).toBe(0);
    expect(await portal.server.services.orm.em.fork().count(SimEvent, {})).toBe(events);
    expect(await toastsSoFar(anna)).toEqual([]);
  });

  it('a repeat of the same list activates nothing twice', async () => {
    const list = Array.from({ length: 25 }, () => newIccid());
    const first = await bulk(anna, list);
    expect(first.data.counts.activated).toBe(25);
    const again = await bulk(anna, list);
    expect(again.data.counts).toMatchObject({ activated: 0, alreadyActive: 25 });
    expect(await portal.server.services.orm.em.fork().count(Sim, { iccid: { $in: list } })).toBe(25);
  });

  it.each([
    [
      '10,001 ICCIDs',
      () => Array.from({ length: 10_001 }, () => newIccid()),
      /^Listan har 10\u00a0001 rader; högst 10\u00a0000 går på en gång\. Dela upp listan i flera\.$/,
    ],
    ['an empty list', () => [], /^iccids måste ha minst 1 värden/],
    ['no list', () => undefined, /iccids/],
    ['a list of numbers', () => [89460000000000000000], /iccids/],
    ['a string', () => '8946', /iccids/],
  ])('refuses %s with 400 naming the field, and activates nothing', async (_, iccids, field) => {
    const list = iccids();
    const r = await bulk(anna, list);
    expect(r.status).toBe(400);
    expect(r.data.error).toMatch(field);
    expect(r.data.issues[0].path[0]).toBe('iccids');
    if (Array.isArray(list) && typeof list[0] === 'string') expect(await activeCount(list as string[])).toBe(0);
  });

  it("rows with their own marks: each row's values win, and a too long one is refused naming the row", async () => {
    const [a, b] = [newIccid(), newIccid()];
    const bad = await bulk(anna, undefined, {
      rows: [{ iccid: a }, { iccid: b, invoiceLineMark: '=' + 'x'.repeat(200) }],
    });
    expect(bad.status).toBe(400);
    expect(bad.data.error).toBe('Rad 2: fakturamärkningen får ha högst 200 tecken.');
    expect(bad.data.issues[0].path).toEqual(['rows', '1', 'invoiceLineMark']);
    expect(await activeCount([a, b])).toBe(0);

    const r = await bulk(anna, undefined, {
      rows: [{ iccid: a, invoiceLineMark: 'Egen', invoiceLineNote: 'Rad 1' }, { iccid: b }],
    });
    expect(r.status).toBe(200);
    expect(r.data.counts.activated).toBe(2);
    const marks = await Promise.all(
      r.data.results.map(async (x: any) => {
        const sim = await (
          await fetch(`${portal.server.url}/api/sim/${x.simId}`, { headers: { cookie: anna } })
        ).json();
        return [sim.invoiceLineMark, sim.invoiceLineNote, sim.history[0].after.invoiceLineMark];
      }),
    );
    expect(marks).toEqual([
      ['Egen', 'Rad 1', 'Egen'],
      ['Låda', '', 'Låda'],
    ]);
    const both = await bulk(anna, [newIccid()], { rows: [{ iccid: newIccid() }] });
    expect(both.status).toBe(400);
    expect(both.data.issues[0].path[0]).toBe('rows');
  });

  // A list of 10,000 through the real door, activated and then deactivated, each row answered in order,
  // each SIM with its event, and the company's daily counts (sim_daily_count, kept by statement triggers) exact.
  it('10,000 ICCIDs: previewed, activated and deactivated in one call each, every row answered', async () => {
    const em = () => portal.server.services.orm.em.fork();
    const demoId = (await em().findOneOrFail(User, { email: 'anna@demo.test' }, { populate: ['company'] })).company.id;
    const counted = async () => {
      const [row] = await em().execute<{ n: number }[]>(
        `select coalesce(sum(n), 0)::int as n from sim_daily_count where company_id = ?`,
        [demoId],
      );
      return row!.n;
    };
    const actual = () => em().count(Sim, { company: demoId, status: 'active' });
    const before = await actual();
    expect(await counted()).toBe(before);
    await toastsSoFar(anna);
    const list = Array.from({ length: 10_000 }, () => newIccid());
    const preview = await bulk(anna, list, { dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.data.counts.ready).toBe(10_000);
    expect(await activeCount(list)).toBe(0);

    const r = await bulk(anna, list);
    expect(r.status).toBe(200);
    expect(r.data.counts).toEqual({
      activated: 10_000,
      ready: 0,
      invalid: 0,
      duplicateInList: 0,
      alreadyActive: 0,
      activeElsewhere: 0,
    });
    expect(r.data.results.map((x: any) => x.iccid)).toEqual(list);
    const ids: number[] = r.data.results.map((x: any) => x.simId);
    expect(new Set(ids).size).toBe(10_000);
    expect(await activeCount(list)).toBe(10_000);
    expect(await em().count(SimEvent, { sim: { iccid: { $in: list } }, kind: 'activated' })).toBe(10_000);
    expect(await counted()).toBe(before + 10_000);
    expect(await toastsSoFar(anna)).toEqual([tBulk.activatedTitle(10_000)]);

    const again = await bulk(anna, list);
    expect(again.data.counts.alreadyActive).toBe(10_000);

    const off = await post('/api/sim/bulk/deactivate', anna, { ids });
    expect(off.status).toBe(200);
    expect(off.data.counts).toEqual({ deactivated: 10_000, notFound: 0, legacy: 0, alreadyInactive: 0 });
    expect(off.data.results.map((x: any) => x.id)).toEqual(ids);
    expect(await activeCount(list)).toBe(0);
    expect(await em().count(SimEvent, { sim: ids, kind: 'deactivated' })).toBe(10_000);
    expect(await counted()).toBe(before);
    expect(await actual()).toBe(before);
  }, 120_000);

  // The daily counts are kept by statement triggers whose upserts take the (company, day) rows in key order, so
  // two lists at once queue on those rows and never deadlock: two activations (one day, today) and two
  // deactivations whose SIMs span five days, all at once (on PostgreSQL each in its own connection; PGlite has one).
  it('bulk lists of one company at once all succeed, and the daily counts stay exact', async () => {
    const em = () => portal.server.services.orm.em.fork();
    const demoId = (await em().findOneOrFail(User, { email: 'anna@demo.test' }, { populate: ['company'] })).company.id;
    const prefix = newIccid().slice(0, 8);
    const seeded = await em().execute<{ id: number }[]>(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select ? || lpad(g::text, 12, '0'), ?, (select id from rate_plan where not is_legacy order by id limit 1), '',
         '', 'active', now() - (g % 5) * interval '1 day'
       from generate_series(1, 4000) g returning id`,
      [prefix, demoId],
    );
    const ids = seeded.map((r) => r.id).sort((x, y) => x - y);
    const exact = async () => {
      const rows = await em().execute<{ day: string; counted: number; actual: number }[]>(
        `select d.day::text, d.n as counted,
           (select count(*)::int from sim s where s.company_id = d.company_id and s.status = 'active'
             and (s.activated_at at time zone 'UTC')::date = d.day) as actual
         from sim_daily_count d where d.company_id = ?`,
        [demoId],
      );
      return rows.filter((r) => r.counted !== r.actual);
    };
    expect(await exact()).toEqual([]);
    const lists = [0, 1].map(() => Array.from({ length: 3000 }, () => newIccid()));
    // Interleaved halves of the seeded SIMs, one list in ascending and one in descending order.
    const evens = ids.filter((_, i) => i % 2 === 0);
    const odds = ids.filter((_, i) => i % 2 === 1).reverse();
    const answers = await Promise.all([
      bulk(anna, lists[0]),
      post('/api/sim/bulk/deactivate', anna, { ids: evens }),
      bulk(anna, lists[1]),
      post('/api/sim/bulk/deactivate', anna, { ids: odds }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.data.counts.activated ?? r.data.counts.deactivated)).toEqual([3000, 2000, 3000, 2000]);
    expect(await exact()).toEqual([]);
    expect(await activeCount([...lists[0]!, ...lists[1]!])).toBe(6000);
    expect(await em().count(Sim, { id: ids, status: 'active' })).toBe(0);
  }, 120_000);

  it('10,000 rows with their own 200-character marks fit the door; a body past its bound is refused (413)', async () => {
    const mark = (i: number) => `Låda ${i} `.padEnd(200, 'x');
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      iccid: newIccid(),
      invoiceLineMark: mark(i),
      invoiceLineNote: mark(i),
    }));
    const r = await bulk(anna, undefined, { rows, dryRun: true });
    expect(r.status).toBe(200);
    expect(r.data.counts.ready).toBe(10_000);
    const huge = await bulk(anna, undefined, {
      rows: [{ iccid: newIccid(), invoiceLineMark: 'x'.repeat(6 * 1024 * 1024) }],
    });
    expect(huge.status).toBe(413);
    expect(huge.data.error).toMatch(/för stor/);
  }, 60_000);

  it('refuses a plan no one has for the whole list (400), and an anonymous caller (401)', async () => {
    const bad = await bulk(anna, [newIccid()], { dataLimit: 7 });
    expect(bad.status).toBe(400);
    expect(bad.data.issues[0].path).toEqual(['dataLimit']);
    const anon = await post('/api/sim/bulk', null, { ...plan, iccids: [newIccid()] });
    expect(anon).toEqual({ status: 401, data: { error: 'Du är inte inloggad.', issues: [] } });
  });

  it('20 parallel overlapping lists over HTTP: every ICCID active once, the activated results are what is active', async () => {
    const pool = Array.from({ length: 50 }, () => newIccid());
    const lists = Array.from({ length: 20 }, (_, i) => {
      const window = pool.slice(i * 1.5, i * 1.5 + 22);
      return i % 4 < 2 ? window : window.reverse();
    });
    const answers = await Promise.all(lists.map((l, i) => bulk(i % 2 ? bo : anna, l)));
    expect(answers.map((a) => a.status)).toEqual(lists.map(() => 200));
    const activated = answers.flatMap((a) =>
      a.data.results.filter((r: any) => r.outcome === 'activated').map((r: any) => r.iccid as string),
    );
    expect(activated.length).toBe(new Set(activated).size);
    const active = await portal.server.services.orm.em.fork().find(Sim, { iccid: { $in: pool }, status: 'active' });
    expect(active).toHaveLength(pool.length);
    expect(new Set(activated)).toEqual(new Set(active.map((s) => s.iccid)));
  });
});

describe('POST /api/sim/bulk/deactivate', () => {
  it('deactivates own SIMs, refuses legacy ones, and says notFound for another company', async () => {
    const mine = (await bulk(anna, [newIccid(), newIccid()])).data.results.map((r: any) => r.simId as number);
    const theirs = (await bulk(bo, [newIccid()])).data.results[0].simId as number;
    const legacy = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { ratePlan: { isLegacy: true }, status: 'active', company: { name: 'Demo AB' } });
    await toastsSoFar(anna);

    const r = await post('/api/sim/bulk/deactivate', anna, { ids: [mine[0], theirs, legacy.id, mine[1], 999_999] });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({
      results: [
        { id: mine[0], outcome: 'deactivated' },
        { id: theirs, outcome: 'notFound' },
        { id: legacy.id, outcome: 'legacy' },
        { id: mine[1], outcome: 'deactivated' },
        { id: 999_999, outcome: 'notFound' },
      ],
      counts: { deactivated: 2, notFound: 2, legacy: 1, alreadyInactive: 0 },
    });
    expect(await toastsSoFar(anna)).toEqual([tBulk.deactivatedTitle(2)]);
    const again = await post('/api/sim/bulk/deactivate', anna, { ids: [mine[0]] });
    expect(again.data.results).toEqual([{ id: mine[0], outcome: 'alreadyInactive' }]);
    const em = portal.server.services.orm.em.fork();
    expect(await em.count(Sim, { id: theirs, status: 'active' })).toBe(1);
    expect(await em.count(SimEvent, { sim: mine, kind: 'deactivated' })).toBe(2);
  });

  it.each([
    ['an empty list', []],
    ['10,001 ids', Array.from({ length: 10_001 }, (_, i) => i + 1)],
    ['ids that are not numbers', ['x']],
    ['a negative id', [-1]],
    ['an id beyond the column', [2 ** 40]],
  ])('refuses %s with 400 naming the field', async (_, ids) => {
    const r = await post('/api/sim/bulk/deactivate', anna, { ids });
    expect(r.status).toBe(400);
    expect(r.data.issues[0].path[0]).toBe('ids');
  });
});

it('both paths are in the OpenAPI document', async () => {
  const doc = await (await fetch(`${portal.server.url}/api/openapi.json`)).json();
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/sim/bulk', '/sim/bulk/deactivate']));
  expect(doc.paths['/sim/bulk'].post).toBeDefined();
  const body = doc.paths['/sim/bulk'].post.requestBody.content['application/json'].schema;
  expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['iccids', 'rows']));
  expect(Object.keys(body.properties.rows.items.properties)).toEqual([
    'iccid',
    'invoiceLineMark',
    'invoiceLineNote',
    'tags',
  ]);
  expect(doc.paths['/sim/bulk/deactivate'].post).toBeDefined();
});
