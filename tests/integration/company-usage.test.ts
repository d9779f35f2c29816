// The company's usage (server/usage/company.ts, overview.ts) on a real database, PGlite or PostgreSQL: records taken
// in through ingestUsage, read back per Swedish day and month, by SIM, plan and country, a page at a time to the end
// by keyset, another company's usage never among them; the home page's overview of the same records.
import { beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Company } from '#server/db/entities.ts';
import { companyUsage, companyUsagePages, keyOf, type UsageAfter, type UsageRow } from '#server/usage/company.ts';
import { companyOverview } from '#server/usage/overview.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { activeSims, clear } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const NOW = new Date('2026-11-28T12:00:00Z');
const opts = { now: NOW, rawDays: 120 };
let sims: Array<{ id: number; iccid: string; plan: number }> = [];
let other = { companyId: 0, simId: 0 };

/** A record of 15 minutes from `start` (ISO with offset). */
const rec = (id: string, iccid: string, start: string, up: number, down: number, country?: string) => {
  const end = new Date(Date.parse(start) + 15 * 60_000).toISOString();
  return { recordId: id, iccid, start, end, bytesUp: up, bytesDown: down, ...(country ? { country } : {}) };
};

beforeAll(async () => {
  const em = db.orm.em.fork();
  await clear(em);
  const active = await activeSims(em, 3);
  sims = [];
  for (const s of active) {
    const [row] = await em.execute<Array<{ rate_plan_id: number }>>('select rate_plan_id from sim where id = ?', [
      s.id,
    ]);
    sims.push({ ...s, plan: Number(row?.rate_plan_id) });
  }
  // Another company with one SIM of its own: its usage must never show in Demo AB's.
  const company = em.create(Company, { name: 'Annan AB', customerNumber: 'usage-other' });
  await em.flush();
  const iccid = withCheckDigit('8946977000000000123');
  const [sim] = await em.execute<Array<{ id: number }>>(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     values (?, ?, (select id from rate_plan order by id limit 1), '', '', 'active', now()) returning id`,
    [iccid, company.id],
  );
  other = { companyId: company.id, simId: Number(sim?.id) };
  const [a, b, c] = sims;
  if (!a || !b || !c) throw new Error('the demo has too few SIMs');
  const counts = await ingestUsage(
    em,
    'mediation',
    [
      // 23:50 Swedish time on 31 October is 31 October; 00:05 on 1 November (UTC 23:05 on 31 October) is November.
      rec('1', a.iccid, '2026-10-31T23:50:00+01:00', 100, 1000, 'SE'),
      rec('2', a.iccid, '2026-11-01T00:05:00+01:00', 200, 2000, 'SE'),
      rec('3', b.iccid, '2026-11-01T10:00:00+01:00', 300, 3000, 'NO'),
      rec('4', c.iccid, '2026-11-01T11:00:00+01:00', 400, 4000),
      rec('5', c.iccid, '2026-11-28T09:00:00+01:00', 500, 5000, 'SE'),
      rec('6', iccid, '2026-11-01T10:00:00+01:00', 7, 7, 'DK'),
    ],
    opts,
  );
  expect(counts.taken).toBe(6);
});

const period = (firstDay: string, lastDay: string) => ({ firstDay, lastDay });
const simple = (r: UsageRow) => [r.period, r.simId ?? r.ratePlanId ?? r.country, r.bytesUp, r.bytesDown, r.records];

async function all(
  group: 'sim' | 'plan' | 'country',
  granularity: 'day' | 'month',
  p: { firstDay: string; lastDay: string },
  limit: number,
  companyId = db.companyId,
) {
  const em = db.orm.em.fork();
  const rows: UsageRow[] = [];
  let after: UsageAfter | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await companyUsage(em, companyId, { group, granularity, period: p, limit, after });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...page.rows);
    const last = page.rows.at(-1);
    if (!page.more || !last) return rows;
    after = { period: last.period, key: keyOf(last) };
  }
  throw new Error('no end');
}

describe('companyUsage', () => {
  it('per Swedish day by SIM, in (day, SIM) order, a page at a time to the end', async () => {
    const sorted = sims.map((s) => s.id).sort((x, y) => x - y);
    const rows = await all('sim', 'day', period('2026-10-31', '2026-11-30'), 1);
    const ids = new Map(sims.map((s) => [s.id, s]));
    expect(rows.map((r) => r.period)).toEqual(['2026-10-31', '2026-11-01', '2026-11-01', '2026-11-01', '2026-11-28']);
    expect(rows.every((r) => r.simId !== null && ids.get(r.simId)?.iccid === r.iccid)).toBe(true);
    const nov1 = rows.filter((r) => r.period === '2026-11-01').map((r) => r.simId);
    expect(nov1).toEqual(sorted);
    expect(rows.find((r) => r.period === '2026-10-31')).toMatchObject({ bytesUp: 100, bytesDown: 1000, bytes: 1100 });
    // Pages of 2 and of 50 read the same rows.
    expect((await all('sim', 'day', period('2026-10-31', '2026-11-30'), 2)).map(simple)).toEqual(rows.map(simple));
  });

  it('per Swedish month by SIM: whole months, the other company never among them', async () => {
    const rows = await all('sim', 'month', period('2026-11-15', '2026-11-20'), 50);
    expect(rows.map((r) => r.period)).toEqual(['2026-11', '2026-11', '2026-11']);
    expect(rows.reduce((s, r) => s + r.bytes, 0)).toBe(200 + 2000 + 300 + 3000 + 400 + 4000 + 500 + 5000);
    expect(rows.some((r) => r.simId === other.simId)).toBe(false);
    const october = await all('sim', 'month', period('2026-10-01', '2026-10-31'), 50);
    expect(october.map(simple)).toEqual([['2026-10', sims[0]?.id, 100, 1000, 1]]);
  });

  it('by plan and by country from the company day rows; unknown country is null', async () => {
    const byCountry = await all('country', 'day', period('2026-11-01', '2026-11-28'), 1);
    expect(byCountry.map(simple)).toEqual([
      ['2026-11-01', null, 400, 4000, 1],
      ['2026-11-01', 'NO', 300, 3000, 1],
      ['2026-11-01', 'SE', 200, 2000, 1],
      ['2026-11-28', 'SE', 500, 5000, 1],
    ]);
    const month = await all('country', 'month', period('2026-10-01', '2026-11-28'), 50);
    expect(month.map(simple)).toEqual([
      ['2026-10', 'SE', 100, 1000, 1],
      ['2026-11', null, 400, 4000, 1],
      ['2026-11', 'NO', 300, 3000, 1],
      ['2026-11', 'SE', 700, 7000, 2],
    ]);
    const byPlan = await all('plan', 'month', period('2026-11-01', '2026-11-30'), 1);
    const expected = new Map<number, number>();
    for (const [s, bytes] of [
      [sims[0], 2200],
      [sims[1], 3300],
      [sims[2], 9900],
    ] as const)
      if (s) expected.set(s.plan, (expected.get(s.plan) ?? 0) + bytes);
    expect(byPlan.map((r) => [r.ratePlanId, r.bytes])).toEqual([...expected].sort((x, y) => x[0] - y[0]));
    expect(byPlan.every((r) => r.ratePlanCode && r.ratePlanDescription)).toBe(true);
    // The other company sees only its own.
    const theirs = await all('country', 'day', period('2026-11-01', '2026-11-30'), 50, other.companyId);
    expect(theirs.map(simple)).toEqual([['2026-11-01', 'DK', 7, 7, 1]]);
  });

  it('the files read every page', async () => {
    const em = db.orm.em.fork();
    const pages: UsageRow[][] = [];
    for await (const p of companyUsagePages(
      em,
      db.companyId,
      { group: 'country', granularity: 'day', period: period('2026-10-01', '2026-11-30') },
      2,
    ))
      pages.push(p);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
  });
});

describe('companyOverview', () => {
  it('today, this month against last month, the top SIMs, silence and freshness', async () => {
    const em = db.orm.em.fork();
    const o = await companyOverview(em, db.companyId, NOW);
    expect(o.month).toBe('2026-11');
    expect(o.today).toBe(5500);
    expect(o.thisMonth).toBe(2200 + 3300 + 9900);
    expect(o.lastMonth).toBe(1100);
    // 1 to 28 October: the record of the 31st is not among them.
    expect(o.lastMonthToDate).toBe(0);
    expect(o.top.map((t) => [t.id, t.bytes])).toEqual([
      [sims[2]?.id, 9900],
      [sims[1]?.id, 3300],
      [sims[0]?.id, 2200],
    ]);
    expect(o.activeSims).toBeGreaterThanOrEqual(3);
    // a and b were last seen on 1 November: silent for 24 hours; c today.
    expect(o.silent).toEqual({ count: 2, exact: true });
    expect(o.asOf).toBe('2026-11-28T08:15:00.000Z');
    const theirs = await companyOverview(em, other.companyId, NOW);
    expect(theirs).toMatchObject({ thisMonth: 14, today: 0, lastMonth: 0, silent: { count: 1, exact: true } });
    expect(theirs.top.map((t) => t.id)).toEqual([other.simId]);
  });
});
