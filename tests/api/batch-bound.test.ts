// The tRPC batch bound counts calls as tRPC itself reads them, so encoded commas and a
// repeated `batch` parameter no longer pass 500 calls in one request; and every list answer is bounded by
// LIST_PAGE_MAX whatever limit the caller asks, so even an allowed batch of 10 has a bounded answer.
import { beforeAll, describe, expect, it } from 'vitest';
import { batchCalls, MAX_BATCH_CALLS } from '#server/http/trpc.ts';
import { Company, RatePlan, Sim } from '#server/db/entities.ts';
import { LIST_PAGE_MAX } from '#domain/zod.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';

const portal = useScreens({ browser: false });
let viewer: string;
let admin: string;

const REFUSED = { error: `För många anrop i en och samma förfrågan (högst ${MAX_BATCH_CALLS}).`, issues: [] };

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
  // More SIMs than a page, so an unbounded list would show it.
  const plan = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const iccid = iccidFactory('8946777');
  for (let i = 0; i < 3 * LIST_PAGE_MAX; i++) em.create(Sim, { iccid: iccid(), company: demo, ratePlan: plan });
  for (let i = 0; i < 3 * LIST_PAGE_MAX; i++)
    em.create(Company, { name: `Bolag ${i}`, customerNumber: `B-${i}`, invoiceNote: '', invoiceInterval: 'monthly' });
  await em.flush();
  viewer = await portal.server.sessionCookie('anna@demo.test');
  admin = await portal.server.sessionCookie('admin@demo.test', { actingCompanyId: demo.id });
});

const get = async (path: string, cookie = viewer) => {
  const res = await fetch(portal.server.url + path, { headers: { cookie } });
  return { status: res.status, text: await res.text() };
};
const names = (n: number, name: string, sep = ',') => Array.from({ length: n }, () => name).join(sep);
const inputs = (n: number, input: unknown) =>
  encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, input]))));

describe('the batch bound reads a request as tRPC does', () => {
  it.each([
    ['encoded commas', `/api/trpc/${names(500, 'sim.list', '%2C')}?batch=1&input=${inputs(500, {})}`],
    ['encoded commas, lower case', `/api/trpc/${names(11, 'sim.list', '%2c')}?batch=1`],
    ['commas and encoded commas', `/api/trpc/${names(6, 'sim.list')}%2C${names(6, 'sim.list')}?batch=1`],
    ['a repeated batch parameter', `/api/trpc/${names(500, 'sim.list')}?batch=1&batch=x&input=${inputs(500, {})}`],
    ['a repeated batch parameter, other order', `/api/trpc/sim.list?batch=x&batch=1`],
    ['an encoded batch parameter name', `/api/trpc/${names(11, 'sim.list')}?%62atch=1&batch=1`],
    ['11 plain calls', `/api/trpc/${names(11, 'sim.list')}?batch=1`],
  ])('refuses %s with 400 before any procedure runs', async (_, path) => {
    const r = await get(path);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual(REFUSED);
  });

  it('counts as tRPC does (unit)', () => {
    expect(batchCalls('/a,b?batch=1', '/a,b')).toBe(2);
    expect(batchCalls('/a%2Cb%2cc?batch=1', '/a%2Cb%2cc')).toBe(3);
    expect(batchCalls('/a,b', '/a,b')).toBe(1); // not a batch: tRPC looks up one procedure named "a,b"
    expect(batchCalls('/a?batch=1&batch=1', '/a')).toBeNull();
    expect(batchCalls('/a%E0?batch=1', '/a%E0')).toBeNull();
  });

  it('still answers a batch of 10, as the browser’s client sends them', async () => {
    const r = await get(`/api/trpc/${names(10, 'sim.list')}?batch=1&input=${inputs(10, { q: 'x' })}`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toHaveLength(10);
  });
});

describe('every list answer is bounded', () => {
  it('a list gives LIST_PAGE_MAX rows when no limit is asked, and refuses a larger limit', async () => {
    const sims = JSON.parse((await get('/api/sim/all')).text) as unknown[];
    expect(sims).toHaveLength(LIST_PAGE_MAX);
    const companies = JSON.parse((await get('/api/admin/getCompanies', admin)).text) as unknown[];
    expect(companies).toHaveLength(LIST_PAGE_MAX);
    for (const path of [
      `/api/sim/all?limit=${LIST_PAGE_MAX + 1}`,
      '/api/sim/all?limit=10000',
      `/api/admin/getCompanies?limit=${LIST_PAGE_MAX + 1}`,
      `/api/company/users?limit=${LIST_PAGE_MAX + 1}`,
      `/api/company/audit?limit=${LIST_PAGE_MAX + 1}`,
    ]) {
      const r = await get(path, admin);
      expect(r.status, path).toBe(400);
      expect(JSON.parse(r.text).issues[0].path, path).toEqual(['limit']);
    }
  });

  it('a batch of 10 list calls asking for 10,000 rows each is refused; asking nothing, it is ten pages', async () => {
    const big = await get(`/api/trpc/${names(10, 'sim.list')}?batch=1&input=${inputs(10, { limit: 10_000 })}`);
    expect(big.status).toBe(400);
    const pages = await get(`/api/trpc/${names(10, 'sim.list')}?batch=1&input=${inputs(10, {})}`);
    expect(pages.status).toBe(200);
    const answers = JSON.parse(pages.text) as Array<{ result: { data: unknown[] } }>;
    expect(answers.map((a) => a.result.data.length)).toEqual(Array(10).fill(LIST_PAGE_MAX));
    // Ten pages of SIMs: some tens of kilobytes, not the fleet.
    expect(pages.text.length).toBeLessThan(10 * LIST_PAGE_MAX * 2_000);
  });
});
