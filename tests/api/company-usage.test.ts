// Long: one read of the company's usage, GET /api/usage, through every grouping (by tag too) on one seeded company.
// GET /api/usage over HTTP (each answer checked against the OpenAPI document by the fetch wrapper): by SIM, plan and
// country, per day and month; walked to the end by following `Link: <…>; rel="next"`; every bad groupBy, granularity,
// from, to and cursor a 400 whose Swedish error names the field; another company's usage never in the answer; an
// API key of scope read reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { createApiKey } from '#server/api-keys/keys.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let cookie = '';
let otherCookie = '';
let ownerCookie = '';
let key = '';
const mine: number[] = [];
let theirs = 0;
let companyA = 0;

const iccid = (n: number) => withCheckDigit(`8946955${String(n).padStart(12, '0')}`);

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const a = em.create(Company, { name: 'Förbrukning AB', customerNumber: 'USE-1', invoiceNote: '' });
  const b = em.create(Company, { name: 'Grannen AB', customerNumber: 'USE-2', invoiceNote: '' });
  const vera = em.create(User, { name: 'Vera', email: 'vera@use.se', company: a, role: 'viewer' });
  em.create(User, { name: 'Gus', email: 'gus@use.se', company: b, role: 'member' });
  em.create(User, { name: 'Maja', email: 'maja@use.se', company: a, role: 'member' });
  const [p1, p2] = await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' }, limit: 2 });
  if (!p1 || !p2) throw new Error('the demo has too few plans');
  const sims = [0, 1, 2, 3, 4].map((i) =>
    em.create(Sim, {
      iccid: iccid(i),
      company: i < 4 ? a : b,
      ratePlan: i % 2 ? p2 : p1,
      status: 'active',
      activatedAt: new Date('2026-10-01T10:00:00Z'),
    }),
  );
  await em.flush();
  mine.push(...sims.slice(0, 4).map((s) => s.id));
  theirs = sims[4]?.id ?? 0;
  // Tags before the usage comes in (a record counts under the tags its SIM has then): 0 and 1 Göteborg, 1 and 2
  // Kylbilar; the other company's SIM Göteborg too.
  const tag = (sim: number, company: number, name: string) =>
    em.execute('insert into sim_tag (company_id, sim_id, tag) values (?, ?, ?)', [company, sim, name]);
  await tag(mine[0] ?? 0, a.id, 'Göteborg');
  await tag(mine[1] ?? 0, a.id, 'Göteborg');
  await tag(mine[1] ?? 0, a.id, 'Kylbilar');
  await tag(mine[2] ?? 0, a.id, 'Kylbilar');
  await tag(theirs, b.id, 'Göteborg');
  companyA = a.id;
  const records = [];
  // Each of the five SIMs on three Swedish days of November, in Sweden and Norway.
  for (const [i] of sims.entries())
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-03'])
      records.push({
        recordId: `${i}-${day}`,
        iccid: iccid(i),
        start: `${day}T08:00:00+01:00`,
        end: `${day}T08:15:00+01:00`,
        bytesUp: 1000 + i,
        bytesDown: 10_000 + i,
        country: i % 2 ? 'NO' : 'SE',
      });
  const counts = await ingestUsage(em, 'mediation', records, {
    now: new Date('2026-11-28T12:00:00Z'),
    rawDays: 10_000,
  });
  expect(counts.taken).toBe(15);
  cookie = await portal.server.sessionCookie('vera@use.se');
  otherCookie = await portal.server.sessionCookie('gus@use.se');
  ownerCookie = await portal.server.sessionCookie('maja@use.se');
  key = (
    await createApiKey(em, { companyId: a.id, userId: vera.id, actingCompanyId: null }, { name: 'läs', scope: 'read' })
  ).key;
});

async function get(url: string, who = cookie) {
  const headers: Record<string, string> = who.startsWith('sp_') ? { authorization: `Bearer ${who}` } : { cookie: who };
  const res = await fetch(url.startsWith('http') ? url : portal.server.url + url, { headers });
  return { status: res.status, link: res.headers.get('link'), data: await res.json() };
}
const nextOf = (link: string | null) => (link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null);

type Row = {
  period: string;
  simId: number | null;
  country: string | null;
  ratePlanId: number | null;
  tag: string | null;
  bytes: number;
};

async function walk(query: string, who = cookie): Promise<{ rows: Row[]; pages: number }> {
  const rows: Row[] = [];
  let url: string | null = `/api/usage?${query}`;
  let pages = 0;
  while (url) {
    const r = await get(url, who);
    expect(r.status).toBe(200);
    rows.push(...r.data);
    pages++;
    url = nextOf(r.link);
    if (url) expect(url.startsWith(`${portal.server.services.config.appUrl}/api/usage?`)).toBe(true);
    expect(pages).toBeLessThan(40);
  }
  return { rows, pages };
}

const PERIOD = 'from=2026-11-01&to=2026-11-30';

describe('GET /api/usage', () => {
  it('by SIM per day: every row of the company once, in (day, SIM) order, by following Link to the end', async () => {
    const one = await walk(`groupBy=sim&${PERIOD}&limit=5`);
    expect(one.pages).toBe(3);
    expect(one.rows).toHaveLength(12);
    expect(one.rows.map((r) => r.simId)).toEqual([...mine, ...mine, ...mine]);
    expect(one.rows.map((r) => r.period)).toEqual(
      ['2026-11-01', '2026-11-02', '2026-11-03'].flatMap((d) => [d, d, d, d]),
    );
    expect(one.rows.some((r) => r.simId === theirs)).toBe(false);
    const all = await get(`/api/usage?groupBy=sim&${PERIOD}`);
    expect(all.link).toBeNull();
    expect(all.data).toEqual(one.rows);
  });

  it('by SIM per month, by plan and by country: sums of the same records', async () => {
    const month = await walk(`groupBy=sim&granularity=month&from=2026-11-15&to=2026-11-15&limit=1`);
    expect(month.rows.map((r) => [r.period, r.simId, r.bytes])).toEqual(
      mine.map((id, i) => ['2026-11', id, 3 * (11_000 + 2 * i)]),
    );
    const country = await walk(`groupBy=country&granularity=month&${PERIOD}&limit=1`);
    expect(country.rows.map((r) => [r.period, r.country, r.bytes])).toEqual([
      ['2026-11', 'NO', 3 * (11_002 + 11_006)],
      ['2026-11', 'SE', 3 * (11_000 + 11_004)],
    ]);
    const plan = await walk(`groupBy=plan&${PERIOD}&limit=2`);
    expect(plan.rows).toHaveLength(6);
    expect(plan.rows.reduce((s, r) => s + r.bytes, 0)).toBe(3 * (11_000 + 11_002 + 11_004 + 11_006));
    expect(new Set(plan.rows.map((r) => r.ratePlanId)).size).toBe(2);
  });

  it("another company's usage is never in the answer; an API key of scope read reads it", async () => {
    const theirRows = await walk(`groupBy=sim&${PERIOD}`, otherCookie);
    expect(theirRows.rows.map((r) => r.simId)).toEqual([theirs, theirs, theirs]);
    // A cursor made by one company finds nothing of the other's: the keys are only where to start.
    const first = await get(`/api/usage?groupBy=sim&${PERIOD}&limit=1`);
    const next = nextOf(first.link);
    if (!next) throw new Error('no next page');
    const crossed = await get(next, otherCookie);
    expect(crossed.status).toBe(200);
    expect(crossed.data.every((r: Row) => r.simId === theirs)).toBe(true);
    const byKey = await walk(`groupBy=country&${PERIOD}`, key);
    expect(byKey.rows).toHaveLength(6);
  });

  it('a bad groupBy, granularity, from, to or cursor is a 400 naming the field in Swedish', async () => {
    const cases: Array<[string, RegExp]> = [
      [`${PERIOD}`, /groupBy/],
      [`groupBy=sims&${PERIOD}`, /groupBy/],
      [`groupBy=sim&granularity=week&${PERIOD}`, /granularity/],
      ['groupBy=sim&from=2026-13-01&to=2026-11-30', /^from /],
      ['groupBy=sim&from=2026-11-01&to=30/11', /^to /],
      ['groupBy=sim&from=2026-11-02&to=2026-11-01', /^to /],
      ['groupBy=sim&from=2024-01-01&to=2026-11-30', /Perioden är längre än 366 dagar/],
      [`groupBy=sim&${PERIOD}&cursor=nonsense`, /cursor/],
    ];
    for (const [query, message] of cases) {
      const r = await get(`/api/usage?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.data.error, query).toMatch(message);
    }
    // A cursor of another grouping is refused, not read as this one's.
    const plan = await get(`/api/usage?groupBy=plan&${PERIOD}&limit=1`);
    const next = nextOf(plan.link);
    if (!next) throw new Error('no next page');
    const cursor = new URL(next).searchParams.get('cursor');
    const r = await get(`/api/usage?groupBy=sim&${PERIOD}&cursor=${cursor}`);
    expect(r.status).toBe(400);
    expect(r.data.error).toMatch(/cursor/);
  });

  it('answers 401 without a caller', async () => {
    expect((await fetch(`${portal.server.url}/api/usage?groupBy=plan`)).status).toBe(401);
  });
});

describe('GET /api/usage by tag (issue 40)', () => {
  // SIM i's record of a day is 11,000 + 2i bytes (up and down).
  const bytes = (...sims: number[]) => sims.reduce((sum, i) => sum + 11_000 + 2 * i, 0);

  it("groupBy=tag: each of the company's tags per day or month, in code point order, and only the company's", async () => {
    const month = await walk(`groupBy=tag&granularity=month&${PERIOD}`);
    expect(month.rows.map((r) => [r.period, r.tag, r.bytes, r.simId, r.country])).toEqual([
      ['2026-11', 'Göteborg', 3 * bytes(0, 1), null, null],
      ['2026-11', 'Kylbilar', 3 * bytes(1, 2), null, null],
    ]);
    // Per day, a page of one row at a time by Link, narrowed to one tag (the tag goes with the next page).
    const days = await walk(`groupBy=tag&tag=Kylbilar&${PERIOD}&limit=1`);
    expect(days.pages).toBe(3);
    expect(days.rows.map((r) => [r.period, r.tag, r.bytes])).toEqual(
      ['2026-11-01', '2026-11-02', '2026-11-03'].map((d) => [d, 'Kylbilar', bytes(1, 2)]),
    );
    // The other company has Göteborg too: its own SIM's usage only.
    const theirRows = await walk(`groupBy=tag&granularity=month&${PERIOD}`, otherCookie);
    expect(theirRows.rows.map((r) => [r.tag, r.bytes])).toEqual([['Göteborg', 3 * bytes(4)]]);
  });

  it('tag with groupBy=sim: the SIMs that have every tag given; not with plan or country (400 naming tag)', async () => {
    const one = await walk(`groupBy=sim&granularity=month&tag=G%C3%B6teborg&${PERIOD}&limit=1`);
    expect(one.rows.map((r) => r.simId)).toEqual([mine[0], mine[1]]);
    const both = await walk(`groupBy=sim&granularity=month&tag=G%C3%B6teborg&tag=Kylbilar&${PERIOD}`);
    expect(both.rows.map((r) => [r.simId, r.bytes])).toEqual([[mine[1], 3 * bytes(1)]]);
    for (const groupBy of ['plan', 'country']) {
      const r = await get(`/api/usage?groupBy=${groupBy}&tag=Kylbilar&${PERIOD}`);
      expect(r.status).toBe(400);
      expect(r.data.error).toMatch(/^tag /);
    }
    // A next page of one tag's rows is not a next page of another's.
    const first = await get(`/api/usage?groupBy=tag&tag=Kylbilar&${PERIOD}&limit=1`);
    const cursor = new URL(nextOf(first.link) ?? 'http://x/').searchParams.get('cursor');
    expect(cursor).toBeTruthy();
    const other = await get(`/api/usage?groupBy=tag&tag=G%C3%B6teborg&${PERIOD}&cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.data.error).toMatch(/cursor/);
  });

  it('a tag counts from when it is set; renamed, its usage goes with it; deleted, it is gone', async () => {
    const em = portal.server.services.orm.em.fork();
    const tagged = await fetch(`${portal.server.url}/api/sim/tags`, {
      method: 'POST',
      headers: { cookie: ownerCookie, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [mine[3]], add: ['Sent'] }),
    });
    expect(tagged.status).toBe(200);
    const tagsNow = async () =>
      (await walk(`groupBy=tag&granularity=month&${PERIOD}`)).rows.map((r) => [r.tag, r.bytes]);
    // Set after SIM 3's usage: nothing under it yet.
    expect(await tagsNow()).toEqual([
      ['Göteborg', 3 * bytes(0, 1)],
      ['Kylbilar', 3 * bytes(1, 2)],
    ]);
    const later = await ingestUsage(
      em,
      'mediation',
      [
        {
          recordId: '3-late',
          iccid: iccid(3),
          start: '2026-11-04T08:00:00+01:00',
          end: '2026-11-04T08:15:00+01:00',
          bytesUp: 500,
          bytesDown: 500,
        },
      ],
      { now: new Date('2026-11-28T12:00:00Z'), rawDays: 10_000 },
    );
    expect(later.taken).toBe(1);
    expect(await tagsNow()).toContainEqual(['Sent', 1000]);
    // Renamed into another tag: its usage is added to the other's.
    const post = (path: string, body: unknown) =>
      fetch(`${portal.server.url}/api${path}`, {
        method: 'POST',
        headers: { cookie: ownerCookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/tags/rename', { from: 'Sent', to: 'Kylbilar' })).status).toBe(200);
    expect(await tagsNow()).toEqual([
      ['Göteborg', 3 * bytes(0, 1)],
      ['Kylbilar', 3 * bytes(1, 2) + 1000],
    ]);
    expect((await post('/tags/delete', { tag: 'Kylbilar' })).status).toBe(200);
    expect(await tagsNow()).toEqual([['Göteborg', 3 * bytes(0, 1)]]);
    const [left] = await em.execute('select count(*)::int as n from usage_tag_day where company_id = ? and tag = ?', [
      companyA,
      'Kylbilar',
    ]);
    expect(Number(left?.n)).toBe(0);
  });
});
