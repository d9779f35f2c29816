// GET /api/sim/all walks the whole fleet by cursor: each page's `Link: <…>; rel="next"` (RFC 8288) leads
// to the next, the body stays the spec's plain array, a walk neither skips nor repeats a SIM while others are
// activated, limit/offset still work, a bad cursor (or one with offset) is a 400 naming it, and another company's
// SIM as a cursor finds nothing of either company.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const newIccid = iccidFactory('8946444');
let cookie: string;
let otherSim: number;
let company: number;
const plan = { dataLimit: 1000, callAndSms: true, roaming: false, invoiceLineMark: 'Ny', invoiceLineNote: '' };

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const c = em.create(Company, { name: 'Kursor AB', customerNumber: 'CUR-1', invoiceNote: '' });
  const o = em.create(Company, { name: 'Annan AB', customerNumber: 'CUR-2', invoiceNote: '' });
  em.create(User, { name: 'Kim', email: 'kim@kursor.se', company: c, role: 'member' });
  const rp = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const base = Date.now() - 86_400_000;
  for (let i = 0; i < 130; i++)
    em.create(Sim, {
      iccid: newIccid(),
      company: c,
      ratePlan: rp,
      invoiceLineMark: i % 2 ? 'Udda' : 'Jämn',
      status: 'active',
      // Some on the same instant: the order's tie-break (id) matters.
      activatedAt: new Date(base + Math.floor(i / 3) * 1000),
    });
  const theirs = em.create(Sim, {
    iccid: newIccid(),
    company: o,
    ratePlan: rp,
    status: 'active',
    activatedAt: new Date(),
  });
  await em.flush();
  company = c.id;
  otherSim = theirs.id;
  cookie = await portal.server.sessionCookie('kim@kursor.se');
});

async function get(url: string) {
  const res = await fetch(url.startsWith('http') ? url : portal.server.url + url, { headers: { cookie } });
  return { status: res.status, link: res.headers.get('link'), data: await res.json() };
}
const nextOf = (link: string | null) => (link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null);

describe('GET /api/sim/all by cursor', () => {
  it('walks every SIM once, in the list’s order, by following Link: rel="next", while SIMs are activated', async () => {
    const all = await portal.server.services.orm.em
      .fork()
      .find(Sim, { company, status: 'active' }, { orderBy: { activatedAt: 'desc', id: 'desc' } });
    const seen: number[] = [];
    let url: string | null = '/api/sim/all?limit=50';
    let pages = 0;
    while (url) {
      const r = await get(url);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.data)).toBe(true);
      seen.push(...r.data.map((s: { id: number }) => s.id));
      url = nextOf(r.link);
      if (url) expect(url.startsWith(`${portal.server.services.config.appUrl}/api/sim/all?`)).toBe(true);
      // A SIM activated during the walk is the newest: it comes before the cursor, never into the walk.
      if (pages++ === 0)
        expect(
          (
            await fetch(portal.server.url + '/api/sim', {
              method: 'POST',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify({ iccid: newIccid(), ...plan }),
            })
          ).status,
        ).toBe(200);
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((s) => s.id));
  });

  it('keeps the search in the next link, and the last page has no link', async () => {
    const first = await get('/api/sim/all?q=udda&limit=40');
    expect(first.data).toHaveLength(40);
    const next = nextOf(first.link);
    expect(next).toContain('q=udda');
    const second = await get(next!);
    expect(second.data.length).toBe(25);
    expect(second.link).toBeNull();
    for (const s of [...first.data, ...second.data]) expect(s.invoiceLineMark).toBe('Udda');
  });

  it('still answers limit and offset (a page by number), with the link to what follows', async () => {
    const r = await get('/api/sim/all?limit=10&offset=20');
    expect(r.data).toHaveLength(10);
    const next = await get(nextOf(r.link)!);
    const byOffset = await get('/api/sim/all?limit=10&offset=30');
    expect(next.data.map((s: { id: number }) => s.id)).toEqual(byOffset.data.map((s: { id: number }) => s.id));
  });

  it('refuses a bad cursor, and a cursor with an offset, naming the cursor', async () => {
    for (const url of [
      '/api/sim/all?cursor=nonsense',
      `/api/sim/all?cursor=${Buffer.from('s1:99999999999').toString('base64url')}`,
      `/api/sim/all?cursor=${Buffer.from('s1:5').toString('base64url')}&offset=10`,
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(400);
      expect(typeof r.data.error).toBe('string');
      expect(r.data.issues.map((i: { path: string[] }) => i.path[0])).toContain('cursor');
    }
  });

  it('finds nothing after another company’s SIM (the cursor is scoped to the caller)', async () => {
    const r = await get(`/api/sim/all?cursor=${Buffer.from(`s1:${otherSim}`).toString('base64url')}`);
    expect(r.status).toBe(200);
    expect(r.data).toEqual([]);
    expect(r.link).toBeNull();
  });

  it('describes the cursor and the Link header in the OpenAPI document', async () => {
    const doc = await (await fetch(`${portal.server.url}/api/openapi.json`)).json();
    const op = doc.paths['/sim/all'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['q', 'limit', 'offset', 'cursor']),
    );
    expect(op.responses['200'].headers.Link.description).toMatch(/rel="next"/);
  });
});
