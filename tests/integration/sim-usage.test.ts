// One SIM's usage read (server/usage/sim.ts) on a real database, PGlite or PostgreSQL, seeded through ingestUsage:
// the month against the plan, the days with gaps as 0 and cut at Swedish midnights, the last sighting, the latest
// records newest first and bounded, the series per hour, day and month with their defaults and refusals, and
// every read scoped to the company's active SIMs.
import { beforeAll, describe, expect, it } from 'vitest';
import { Invalid, NotFound } from '#domain/errors.ts';
import { SIM_SESSIONS } from '#domain/usage/sim-schemas.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { simUsageOverview, simUsageSeries } from '#server/usage/sim.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { activeSims, clear } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const NOW = new Date('2026-11-28T12:00:00Z');
const opts = { now: NOW, rawDays: 300 };
const em = () => db.orm.em.fork();

let sim: { id: number; iccid: string };
let other: { id: number; iccid: string };

const rec = (recordId: string, iccid: string, start: string, up: number, down: number, extra = {}) => ({
  recordId,
  iccid,
  start,
  end: new Date(Date.parse(start) + 15 * 60_000).toISOString(),
  bytesUp: up,
  bytesDown: down,
  ...extra,
});

beforeAll(async () => {
  await clear(em());
  const sims = await activeSims(em(), 2);
  if (!sims[0] || !sims[1]) throw new Error('too few demo SIMs');
  [sim, other] = [sims[0], sims[1]];
  const counts = await ingestUsage(
    em(),
    'mediation',
    [
      // 23:50 on 27 November in Sweden (UTC+1): the 27th.
      rec('a', sim.iccid, '2026-11-27T22:50:00Z', 100, 1000, { network: '240-01', country: 'SE', rat: 'LTE' }),
      // 00:30 on the 28th in Sweden, though still the 27th in UTC.
      rec('b', sim.iccid, '2026-11-27T23:30:00Z', 200, 2000, { network: '240-02', country: 'SE', rat: 'NR' }),
      // 00:30 on 1 November in Sweden: November's.
      rec('c', sim.iccid, '2026-10-31T23:30:00Z', 10, 20),
      // 23:30 on 31 October in Sweden: October's, not this month's.
      rec('d', sim.iccid, '2026-10-31T22:30:00Z', 5_000, 5_000),
      // The same hour twice (the series sums them), and a gap of days before it.
      rec('e', sim.iccid, '2026-11-20T10:00:00Z', 1, 2),
      rec('f', sim.iccid, '2026-11-20T10:30:00Z', 3, 4),
      // Another SIM's record: never in this one's figures.
      rec('g', other.iccid, '2026-11-28T08:00:00Z', 999, 999, { network: '242-01', country: 'NO' }),
    ],
    opts,
  );
  expect(counts).toMatchObject({ taken: 7, refused: [] });
});

describe('simUsageOverview', () => {
  it('sums this Swedish month against the plan, says the last sighting and the company freshness', async () => {
    const o = await simUsageOverview(em(), db.companyId, sim.id, opts);
    expect(o.month).toBe('2026-11');
    expect(o.monthBytesUp).toBe(100 + 200 + 10 + 1 + 3);
    expect(o.monthBytesDown).toBe(1000 + 2000 + 20 + 2 + 4);
    expect(o.monthBytes).toBe(o.monthBytesUp + o.monthBytesDown);
    const [plan] = await em().execute<Array<{ data_limit: number }>>(
      'select r.data_limit from sim s join rate_plan r on r.id = s.rate_plan_id where s.id = ?',
      [sim.id],
    );
    expect(o.dataLimitMb).toBe(Number(plan?.data_limit));
    expect(o.lastSeen).toEqual({ at: '2026-11-27T23:45:00.000Z', network: '240-02', country: 'SE' });
    // The company's freshness: the other SIM's later record.
    expect(o.asOf).toBe('2026-11-28T08:15:00.000Z');
  });

  it('has the last 90 Swedish days, today last, cut at Swedish midnight, 0 on the days without traffic', async () => {
    const { days } = await simUsageOverview(em(), db.companyId, sim.id, opts);
    expect(days).toHaveLength(90);
    expect(days.at(-1)).toEqual({ day: '2026-11-28', bytes: 2200 });
    expect(days.at(-2)).toEqual({ day: '2026-11-27', bytes: 1100 });
    expect(days[0]?.day).toBe('2026-08-31');
    const byDay = new Map(days.map((d) => [d.day, d.bytes]));
    expect(byDay.get('2026-11-20')).toBe(10);
    expect(byDay.get('2026-11-01')).toBe(30);
    expect(byDay.get('2026-10-31')).toBe(10_000);
    expect(days.filter((d) => d.bytes > 0)).toHaveLength(5);
    expect(byDay.get('2026-11-21')).toBe(0);
  });

  it('lists the latest records newest first, at most SIM_SESSIONS of them', async () => {
    const batch = Array.from({ length: SIM_SESSIONS + 5 }, (_, i) =>
      rec(`s-${i}`, other.iccid, new Date(Date.UTC(2026, 10, 26, 0, 15 * i)).toISOString(), i, i),
    );
    await ingestUsage(em(), 'mediation', batch, opts);
    const o = await simUsageOverview(em(), db.companyId, other.id, opts);
    expect(o.sessions).toHaveLength(SIM_SESSIONS);
    // The newest: record g (28 Nov 08:00), then s-24, s-23 ...
    expect(o.sessions[0]).toEqual({
      start: '2026-11-28T08:00:00.000Z',
      end: '2026-11-28T08:15:00.000Z',
      bytesUp: 999,
      bytesDown: 999,
      network: '242-01',
      country: 'NO',
      rat: null,
    });
    expect(o.sessions[1]).toMatchObject({ start: '2026-11-26T06:00:00.000Z', bytesUp: 24 });
    const starts = o.sessions.map((s) => s.start);
    expect([...starts].sort().reverse()).toEqual(starts);
    const mine = await simUsageOverview(em(), db.companyId, sim.id, opts);
    expect(mine.sessions.map((s) => s.bytesUp)).toEqual([200, 100, 3, 1, 10, 5_000]);
  });

  it("is not found for another company's SIM nor a deactivated one, as the SIM page answers", async () => {
    await expect(simUsageOverview(em(), db.companyId + 1000, sim.id, opts)).rejects.toBeInstanceOf(NotFound);
    await expect(
      simUsageSeries(em(), db.companyId + 1000, sim.id, { granularity: 'day' }, opts),
    ).rejects.toBeInstanceOf(NotFound);
    const [off] = await em().execute<Array<{ id: number }>>(
      `select id from sim where status = 'deactivated' and company_id = ? limit 1`,
      [db.companyId],
    );
    if (!off) throw new Error('the demo data has no deactivated SIM');
    await expect(simUsageOverview(em(), db.companyId, off.id, opts)).rejects.toBeInstanceOf(NotFound);
    await expect(simUsageSeries(em(), db.companyId, off.id, { granularity: 'day' }, opts)).rejects.toBeInstanceOf(
      NotFound,
    );
  });

  it('is zero and never seen for a SIM without usage', async () => {
    const [, , third] = await activeSims(em(), 3);
    if (!third) throw new Error('too few demo SIMs');
    const o = await simUsageOverview(em(), db.companyId, third.id, opts);
    expect(o).toMatchObject({ monthBytes: 0, lastSeen: null, sessions: [] });
    expect(o.days.every((d) => d.bytes === 0)).toBe(true);
  });
});

describe('simUsageSeries', () => {
  it('sums the raw records per hour, every hour of the period listed', async () => {
    const s = await simUsageSeries(
      em(),
      db.companyId,
      sim.id,
      { granularity: 'hour', from: '2026-11-20T09:00:00Z', to: '2026-11-20T12:00:00Z' },
      opts,
    );
    expect(s.items.map((i) => [i.period, i.bytes])).toEqual([
      ['2026-11-20T09:00:00.000Z', 0],
      ['2026-11-20T10:00:00.000Z', 10],
      ['2026-11-20T11:00:00.000Z', 0],
    ]);
    expect(s.items[1]).toMatchObject({ bytesUp: 4, bytesDown: 6, end: '2026-11-20T11:00:00.000Z' });
    const last24 = await simUsageSeries(em(), db.companyId, sim.id, { granularity: 'hour' }, opts);
    expect(last24.items).toHaveLength(24);
    expect(last24.to).toBe(NOW.toISOString());
    expect(last24.items.find((i) => i.period === '2026-11-27T23:00:00.000Z')?.bytes).toBe(2200);
  });

  it('reads Swedish days from the day totals: both days included, the instants their Swedish midnights', async () => {
    const s = await simUsageSeries(
      em(),
      db.companyId,
      sim.id,
      { granularity: 'day', from: '2026-10-31', to: '2026-11-01' },
      opts,
    );
    expect(s.from).toBe('2026-10-30T23:00:00.000Z');
    expect(s.items).toEqual([
      {
        period: '2026-10-31',
        start: '2026-10-30T23:00:00.000Z',
        end: '2026-10-31T23:00:00.000Z',
        bytesUp: 5_000,
        bytesDown: 5_000,
        bytes: 10_000,
      },
      {
        period: '2026-11-01',
        start: '2026-10-31T23:00:00.000Z',
        end: '2026-11-01T23:00:00.000Z',
        bytesUp: 10,
        bytesDown: 20,
        bytes: 30,
      },
    ]);
    // The day summer time ends is 25 hours long.
    const dst = await simUsageSeries(
      em(),
      db.companyId,
      sim.id,
      { granularity: 'day', from: '2026-10-25', to: '2026-10-25' },
      opts,
    );
    expect(dst.items).toMatchObject([{ start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z', bytes: 0 }]);
    const last30 = await simUsageSeries(em(), db.companyId, sim.id, { granularity: 'day' }, opts);
    expect(last30.items).toHaveLength(30);
    expect(last30.items.at(-1)?.period).toBe('2026-11-28');
  });

  it('reads Swedish months from the month totals, the last 12 by default', async () => {
    const s = await simUsageSeries(em(), db.companyId, sim.id, { granularity: 'month' }, opts);
    expect(s.items).toHaveLength(12);
    expect(s.items[0]?.period).toBe('2025-12');
    expect(s.items.slice(-2).map((i) => [i.period, i.bytes])).toEqual([
      ['2026-10', 10_000],
      ['2026-11', 3340],
    ]);
  });

  it('refuses a period it cannot read or that is too long, naming the field', async () => {
    const refusal = (q: Parameters<typeof simUsageSeries>[3]) =>
      simUsageSeries(em(), db.companyId, sim.id, q, opts).then(
        () => null,
        (e: unknown) => (e instanceof Invalid ? e.issues : e),
      );
    expect(await refusal({ granularity: 'day', from: '2026-13-01' })).toEqual([
      { path: ['from'], message: expect.stringMatching(/^from /) },
    ]);
    expect(await refusal({ granularity: 'day', to: 'igår' })).toEqual([
      { path: ['to'], message: expect.stringMatching(/^to /) },
    ]);
    expect(await refusal({ granularity: 'day', from: '2026-11-28', to: '2026-11-01' })).toEqual([
      { path: ['to'], message: expect.stringContaining('to') },
    ]);
    expect(await refusal({ granularity: 'hour', from: '2026-11-01', to: '2026-11-28' })).toEqual([
      { path: ['to'], message: expect.stringContaining('granularity=hour') },
    ]);
    expect(await refusal({ granularity: 'day', from: '2024-01-01', to: '2026-11-28' })).toEqual([
      { path: ['to'], message: expect.stringContaining('366') },
    ]);
    // Hours older than the raw records' window are gone: said, not answered as zeros.
    const gone = await simUsageSeries(
      em(),
      db.companyId,
      sim.id,
      { granularity: 'hour', from: '2025-01-01', to: '2025-01-02' },
      { now: NOW, rawDays: 90 },
    ).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(Invalid);
    expect((gone as Invalid).issues[0]?.path).toEqual(['from']);
  });
});
