// The usage tables' partitions (server/usage/partitions.ts): made on demand by a batch and ahead by the
// maintenance, dropped whole past the retention (raw records 90 days, totals 36 months by default), and never a
// difference to the entities for the schema diff.
import { describe, expect, it } from 'vitest';
import { ingestUsage } from '#server/usage/ingest.ts';
import {
  existingPartitions,
  maintainUsagePartitions,
  partitionOf,
  rawOldest,
  totalsOldest,
} from '#server/usage/partitions.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { clear } from '#tests/helpers/usage.ts';

const db = useDemoOrm();

describe('usage partitions', () => {
  it('names each range by its start', () => {
    expect(partitionOf('usage_record', '2026-11-28')).toEqual({
      table: 'usage_record',
      name: 'usage_record_p20261128',
      from: '2026-11-28',
      to: '2026-11-29',
    });
    expect(partitionOf('usage_day', '2026-12-31')).toMatchObject({ name: 'usage_day_p202612', to: '2027-01-01' });
    expect(partitionOf('usage_month', '2026-12-01')).toMatchObject({ from: '2026-01-01', to: '2027-01-01' });
    expect(rawOldest(new Date('2026-11-28T00:30:00Z'), 90).toISOString()).toBe('2026-08-30T00:00:00.000Z');
    expect(totalsOldest(new Date('2026-11-28T12:00:00Z'), 36)).toBe('2023-11-01');
    expect(totalsOldest(new Date('2026-12-31T23:30:00Z'), 12)).toBe('2026-01-01'); // already January in Sweden
  });

  it('are made by a batch and ahead, dropped past the retention, and the schema diff stays empty', async () => {
    const em = db.orm.em.fork();
    // From no partitions at all: the demo data's usage (its last 90 days) out of the way.
    for (const name of await existingPartitions(em)) await em.execute(`drop table "${name}"`);
    await clear(em);
    const [sim] = await em.execute<Array<{ iccid: string }>>(`select iccid from sim where status = 'active' limit 1`);
    const old = new Date('2026-06-10T12:00:00Z');
    const rec = (recordId: string, start: string) => ({
      recordId,
      iccid: sim?.iccid,
      start,
      end: start,
      bytesUp: 1,
      bytesDown: 1,
    });
    // Stored while 2026-06-01 was inside the window (now 2026-06-10), and one the day before.
    expect(
      await ingestUsage(em, 'p', [rec('old', '2026-06-01T08:00:00Z'), rec('new', '2026-06-09T08:00:00Z')], {
        now: old,
      }),
    ).toMatchObject({ taken: 2 });
    const made = await existingPartitions(em);
    expect([...made].filter((n) => n.startsWith('usage_record_')).sort()).toEqual([
      'usage_record_p20260601',
      'usage_record_p20260609',
    ]);
    expect(made.has('usage_day_p202606') && made.has('usage_month_p2026')).toBe(true);
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');

    // Ten days on, with a 5-day window: the 1 June partition is past it, the 9 June one not yet.
    const now = new Date('2026-06-20T12:00:00Z');
    const r = await maintainUsagePartitions(em, { now, rawDays: 15, totalsMonths: 36 });
    expect(r.dropped).toEqual(['usage_record_p20260601']);
    expect(r.made).toEqual(expect.arrayContaining(['usage_record_p20260620', 'usage_record_p20260621']));
    const [left] = await em.execute(`select count(*) as n from usage_record`);
    expect(Number(left?.n)).toBe(1);
    // The totals keep both records.
    const [month] = await em.execute(`select sum(records) as n from usage_month`);
    expect(Number(month?.n)).toBe(2);
    // A second run drops and makes nothing.
    expect(await maintainUsagePartitions(em, { now, rawDays: 15, totalsMonths: 36 })).toEqual({
      dropped: [],
      made: [],
    });
    // Older than the window: refused, and no partition is made for it.
    const late = await ingestUsage(em, 'p', [rec('late', '2026-06-02T08:00:00Z')], { now, rawDays: 15 });
    expect(late.refused).toEqual([
      { index: 0, reason: 'start ligger längre bak än lagringstiden för rådata (15 dagar).' },
    ]);
    expect((await existingPartitions(em)).has('usage_record_p20260602')).toBe(false);

    // Totals: 36 months on, the 2026 partitions of the day totals go; the year of month totals goes once all of it is past.
    const companyDays = async () =>
      Number((await em.execute(`select count(*) as n from usage_company_day where day < '2026-07-01'`))[0]?.n);
    expect(await companyDays()).toBe(2);
    const later = await maintainUsagePartitions(em, {
      now: new Date('2029-07-15T12:00:00Z'),
      rawDays: 90,
      totalsMonths: 36,
    });
    expect(later.dropped).toEqual(expect.arrayContaining(['usage_day_p202606', 'usage_record_p20260609']));
    expect(later.dropped).not.toContain('usage_month_p2026');
    expect(await companyDays()).toBe(0); // the company's days of June 2026 with them
    const last = await maintainUsagePartitions(em, {
      now: new Date('2030-01-15T12:00:00Z'),
      rawDays: 90,
      totalsMonths: 36,
    });
    expect(last.dropped).toContain('usage_month_p2026');
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');
  });
});
