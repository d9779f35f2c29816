// The demo's usage (server/usage/demo.ts, seeded by seedDemo on an empty database): 90 days through ingestUsage,
// the same records on every run at the same clock, a daily rhythm, the SIM near its plan's amount this month,
// roaming on trips, the SIMs silent for 2 and 8 days, totals that are the sum of the raw records; and how long it
// adds to the seed (printed: the first start of `npm start` pays it once).
import { beforeAll, describe, expect, it } from 'vitest';
import { swedishMonth } from '#domain/usage/time.ts';
import { demoSims } from '#server/db/demo-sims.ts';
import { migrate } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { demoActivity, demoUsageRecords, DEMO_SOURCE } from '#server/usage/demo.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';
import { num } from '#tests/helpers/usage.ts';

const db = useFreshOrm();
const HOUR = 3_600_000;
let seededAt: Date;
let records = 0;

beforeAll(async () => {
  await migrate(db.orm);
  seededAt = new Date();
  const t0 = performance.now();
  const r = await seedDemo(db.orm.em.fork(), { now: seededAt });
  const ms = Math.round(performance.now() - t0);
  records = r.usageRecords;
  console.log(`seedDemo with ${records} usage records: ${ms} ms`);
}, 120_000);

const sim = (note: string) => {
  const found = demoSims.find((s) => s.note === note);
  if (!found) throw new Error(`no demo SIM ${note}`);
  return found;
};

const q = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);

describe('the demo usage', () => {
  it('stores every record once, from source "demo"; a second seed changes nothing', async () => {
    expect(records).toBe(demoUsageRecords(seededAt).length);
    expect(records).toBeGreaterThan(500);
    const [row] = await q<{ n: string; sources: string }>(
      `select count(*) as n, string_agg(distinct source, ',') as sources from usage_record`,
    );
    expect(num(row?.n)).toBe(records);
    expect(row?.sources).toBe(DEMO_SOURCE);
    const again = await seedDemo(db.orm.em.fork(), { now: seededAt });
    expect(again).toMatchObject({ sims: 0, usageRecords: 0 });
  });

  it('is the same on every run at the same clock, and covers 90 days', () => {
    const now = new Date('2026-03-30T10:07:00Z');
    const a = demoUsageRecords(now);
    expect(demoUsageRecords(now)).toEqual(a);
    const starts = a.map((r) => Date.parse(r.start));
    expect(now.getTime() - Math.min(...starts)).toBeGreaterThan(89 * 24 * HOUR);
    // Every record at most 15 minutes over the last two days, a session of at most 8 hours before.
    for (const r of a) {
      const length = Date.parse(r.end) - Date.parse(r.start);
      expect(length).toBeLessThanOrEqual(Date.parse(r.start) >= now.getTime() - 48 * HOUR ? 15 * 60_000 : 8 * HOUR);
      expect(Date.parse(r.end)).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('has a daily rhythm: more by day than by night, on weekdays than on weekends', () => {
    const a = demoUsageRecords(new Date('2026-11-28T12:00:00Z')).filter((r) => r.iccid === sim('Router').iccid);
    const byHour = (test: (local: Date) => boolean) =>
      a.filter((r) => test(new Date(r.start))).reduce((s, r) => s + r.bytesUp + r.bytesDown, 0);
    const hourOf = (d: Date) => Number(d.toLocaleString('en-GB', { timeZone: 'Europe/Stockholm', hour: '2-digit' }));
    const dayOf = (d: Date) => d.toLocaleString('en-GB', { timeZone: 'Europe/Stockholm', weekday: 'short' });
    expect(byHour((d) => hourOf(d) >= 7 && hourOf(d) < 17)).toBeGreaterThan(5 * byHour((d) => hourOf(d) < 5));
    expect(byHour((d) => !['Sat', 'Sun'].includes(dayOf(d)))).toBeGreaterThan(5 * byHour((d) => dayOf(d) === 'Sun'));
    expect(demoActivity('work', new Date('2026-11-25T10:00:00Z'))).toBeGreaterThan(
      demoActivity('work', new Date('2026-11-29T10:00:00Z')),
    );
  });

  it('has one SIM above 80 % of its plan this month, roaming, and SIMs silent for 2 and 8 days', async () => {
    const month = `${swedishMonth(seededAt)}-01`;
    const rows = await q<{ note: string; bytes: string; limit_mb: number | null }>(
      `select s.invoice_line_note as note, m.bytes_up + m.bytes_down as bytes, p.data_limit as limit_mb
       from usage_month m join sim s on s.id = m.sim_id join rate_plan p on p.id = s.rate_plan_id
       where m.month = ?`,
      [month],
    );
    const near = rows.find((r) => r.note === 'Handdator 1');
    expect(near?.limit_mb).toBe(5000);
    expect(num(near?.bytes) / ((near?.limit_mb ?? 1) * 1e6)).toBeGreaterThan(0.8);
    expect(num(near?.bytes) / ((near?.limit_mb ?? 1) * 1e6)).toBeLessThan(1);

    const countries = await q<{ country: string }>(
      `select distinct country from usage_record where sim_id = (select id from sim where iccid = ?) order by 1`,
      [sim('Router').iccid],
    );
    expect(countries.map((c) => c.country)).toEqual(['DE', 'DK', 'NO', 'SE']);

    const seen = await q<{ note: string; at: Date }>(
      `select s.invoice_line_note as note, l.at from usage_last_seen l join sim s on s.id = l.sim_id`,
    );
    const silentFor = (note: string) =>
      (seededAt.getTime() - new Date(seen.find((r) => r.note === note)?.at ?? 0).getTime()) / HOUR;
    expect(silentFor('Larm')).toBeGreaterThanOrEqual(48);
    expect(silentFor('Larm')).toBeLessThan(7 * 24);
    expect(silentFor('Handdator 2')).toBeGreaterThanOrEqual(8 * 24);
    expect(silentFor('Handdator 2')).toBeLessThan(14 * 24);
    expect(seen.map((r) => r.note).sort()).toEqual(['Handdator 1', 'Handdator 2', 'Larm', 'Router']);
  });

  it('keeps totals that are the sum of the raw records', async () => {
    const [diff] = await q<{ days: string; months: string }>(
      `with raw as (select company_id, sim_id, (start at time zone 'Europe/Stockholm')::date as day,
          sum(bytes_up + bytes_down) as b from usage_record group by 1, 2, 3)
       select (select count(*) from raw full join usage_day d using (company_id, sim_id, day)
               where raw.b is distinct from d.bytes_up + d.bytes_down) as days,
              (select count(*) from (select company_id, sim_id, date_trunc('month', day)::date as month, sum(b) as b
                 from raw group by 1, 2, 3) r full join usage_month m using (company_id, sim_id, month)
               where r.b is distinct from m.bytes_up + m.bytes_down) as months`,
    );
    expect(num(diff?.days)).toBe(0);
    expect(num(diff?.months)).toBe(0);
  });
});
