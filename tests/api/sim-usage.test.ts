// GET /api/sim/{id}/usage (issue 39) over HTTP, every answer checked against the OpenAPI document by the fetch
// wrapper (tests/helpers/openapi-setup.ts): each granularity of a SIM seeded through ingestUsage, the defaults, a
// from or to it cannot read or a period too long as a 400 naming the field, another company's or a deactivated
// SIM as 404, and a read key enough.
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { nextDay } from '#domain/usage/period.ts';
import { swedishDay } from '#domain/usage/time.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946577');

type Answer = { status: number; data: Record<string, unknown> & { error?: string; issues?: unknown[] } };
type Item = { period: string; start: string; end: string; bytesUp: number; bytesDown: number; bytes: number };

async function get(path: string, auth: { cookie?: string; key?: string }): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth.cookie) headers.cookie = auth.cookie;
  if (auth.key) headers.authorization = `Bearer ${auth.key}`;
  const res = await fetch(portal.server.url + path, { headers });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : {} };
}

let owner: string;
let otherOwner: string;
let simId: number;
/** The first record's hour (UTC), today's Swedish day, and the Swedish day of the latest record (yesterday's in the
 * first 50 minutes after a Swedish midnight). */
let hour: Date;
let today: string;
let latestDay: string;

beforeAll(async () => {
  const e = em();
  const demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  e.create(User, { name: 'Ulla Ägare', email: 'ulla@demo.test', company: demo, role: 'owner' });
  const other = e.create(Company, {
    name: 'Annat AB',
    customerNumber: `USE-${Date.now()}`,
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  e.create(User, { name: 'Otto Annan', email: 'otto@annat.se', company: other, role: 'owner' });
  await e.flush();
  owner = await portal.server.sessionCookie('ulla@demo.test');
  otherOwner = await portal.server.sessionCookie('otto@annat.se');
  // A SIM of its own, so the demo's usage is not in its figures.
  const iccid = newIccid();
  const res = await fetch(`${portal.server.url}/api/sim`, {
    method: 'POST',
    headers: { cookie: owner, 'content-type': 'application/json' },
    body: JSON.stringify({
      iccid,
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: 'Användning',
      invoiceLineNote: '',
    }),
  });
  simId = ((await res.json()) as { id: number }).id;
  // Two records in one hour, two hours ago (started then), and one 50 minutes ago.
  const now = Date.now();
  hour = new Date(Math.floor((now - 2 * 3_600_000) / 3_600_000) * 3_600_000);
  const rec = (id: string, start: number, up: number, down: number) => ({
    recordId: id,
    iccid,
    start: new Date(start).toISOString(),
    end: new Date(start + 10 * 60_000).toISOString(),
    bytesUp: up,
    bytesDown: down,
    network: '240-01',
    country: 'SE',
  });
  const counts = await ingestUsage(em(), 'api-test', [
    rec('u-1', hour.getTime() + 60_000, 1_000, 10_000),
    rec('u-2', hour.getTime() + 30 * 60_000, 2_000, 20_000),
    rec('u-3', now - 50 * 60_000, 4_000, 40_000),
  ]);
  expect(counts).toMatchObject({ taken: 3 });
  today = swedishDay(new Date());
  latestDay = swedishDay(new Date(now - 50 * 60_000));
});

const byDay = (items: Item[], day: string) => items.find((i) => i.period === day)?.bytes ?? 0;

describe('GET /api/sim/{id}/usage', () => {
  it('answers the last 30 Swedish days by default, today last, each with its bytes', async () => {
    const r = await get(`/api/sim/${simId}/usage`, { cookie: owner });
    expect(r.status).toBe(200);
    const items = r.data.items as Item[];
    expect(r.data).toMatchObject({ simId, granularity: 'day' });
    expect(items).toHaveLength(30);
    expect(items.at(-1)?.period).toBe(today);
    const total = items.reduce((sum, i) => sum + i.bytes, 0);
    expect(total).toBe(77_000);
    expect(typeof r.data.asOf).toBe('string');
  });

  it('sums the raw records per hour (times ISO 8601 UTC)', async () => {
    const from = new Date(hour.getTime() - 3_600_000).toISOString();
    const to = new Date(hour.getTime() + 2 * 3_600_000).toISOString();
    const r = await get(`/api/sim/${simId}/usage?granularity=hour&from=${from}&to=${to}`, { cookie: owner });
    expect(r.status).toBe(200);
    const items = r.data.items as Item[];
    expect(items.map((i) => i.start)).toEqual([
      from,
      hour.toISOString(),
      new Date(hour.getTime() + 3_600_000).toISOString(),
    ]);
    expect(items[1]).toMatchObject({ bytesUp: 3_000, bytesDown: 30_000, bytes: 33_000 });
  });

  it('reads days as YYYY-MM-DD, both included, and months of the Swedish calendar', async () => {
    const query = `granularity=day&from=${latestDay}&to=${latestDay}`;
    const day = await get(`/api/sim/${simId}/usage?${query}`, { cookie: owner });
    expect(day.status).toBe(200);
    expect((day.data.items as Item[]).map((i) => i.period)).toEqual([latestDay]);
    expect(byDay(day.data.items as Item[], latestDay)).toBeGreaterThan(0);
    const month = await get(`/api/sim/${simId}/usage?granularity=month`, { cookie: owner });
    expect(month.status).toBe(200);
    const months = month.data.items as Item[];
    expect(months).toHaveLength(12);
    expect(months.at(-1)?.period).toBe(today.slice(0, 7));
    expect(months.reduce((sum, i) => sum + i.bytes, 0)).toBe(77_000);
  });

  it('refuses a from or to it cannot read, or a period too long, with 400 naming the field', async () => {
    const refused = async (query: string, field: string) => {
      const r = await get(`/api/sim/${simId}/usage?${query}`, { cookie: owner });
      expect(r.status).toBe(400);
      expect(r.data.error).toContain(field);
      expect(r.data.issues).toEqual([expect.objectContaining({ path: [field] })]);
    };
    await refused('from=2026-02-30', 'from');
    await refused('to=imorgon', 'to');
    await refused(`from=${today}&to=2020-01-01`, 'to');
    await refused('granularity=hour&from=2026-01-01&to=2026-03-01', 'to');
    await refused('granularity=week', 'granularity');
    await refused(`granularity=day&from=2020-01-01&to=${today}`, 'to');
    await refused(`from=${'9'.repeat(41)}`, 'from');
    // A day after today is still a day: its period is answered (0 there).
    const ahead = await get(`/api/sim/${simId}/usage?from=${today}&to=${nextDay(today)}`, { cookie: owner });
    expect(ahead.status).toBe(200);
  });

  it("answers 404 for another company's SIM and a deactivated one, as GET /api/sim/{id} does", async () => {
    const other = await get(`/api/sim/${simId}/usage`, { cookie: otherOwner });
    expect(other.status).toBe(404);
    const sim = await get(`/api/sim/${simId}`, { cookie: otherOwner });
    expect(other.data.error).toBe(sim.data.error);
    const [off] = await em().execute<Array<{ id: number }>>(`select id from sim where status = 'deactivated' limit 1`);
    if (!off) throw new Error('the demo data has no deactivated SIM');
    expect((await get(`/api/sim/${off.id}/usage`, { cookie: owner })).status).toBe(404);
    expect((await get('/api/sim/999999999/usage', { cookie: owner })).status).toBe(404);
  });

  it('takes a read key, and says so in the OpenAPI document', async () => {
    const made = await fetch(`${portal.server.url}/api/company/apiKeys`, {
      method: 'POST',
      headers: { cookie: owner, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Förbrukning', scope: 'read' }),
    });
    const { key } = (await made.json()) as { key: string };
    const r = await get(`/api/sim/${simId}/usage?granularity=hour`, { key });
    expect(r.status).toBe(200);
    expect((r.data.items as Item[]).length).toBe(24);
    expect((await get(`/api/sim/${simId}/usage`, {})).status).toBe(401);
    const doc = (await (await fetch(`${portal.server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { 'x-required-scope': string | null; description: string }>>;
    };
    const op = doc.paths['/sim/{id}/usage']?.get;
    expect(op?.['x-required-scope']).toBe('read');
    expect(op?.description).toContain('Europe/Stockholm');
  });
});
