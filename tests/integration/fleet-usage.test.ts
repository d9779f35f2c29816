// /sims' views (server/sims/views.ts, docs/decisions/035) on a real database, PGlite or PostgreSQL: every sort and
// usage filter, paged a few SIMs at a time, lists exactly what a plain reading of the same data in JavaScript lists
// (SIMs without a figure after the rest, either way, in the list's order), with a search in both its forms; a
// filter's count; the export's batches the same rows in the same order; each SIM's usage read for a page at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { FILTER_SORTS, FILTERS, SORTS, viewOf, type ListView } from '#domain/sims/view.ts';
import { listSimBatches, listSims } from '#server/sims/list.ts';
import { withUsageAndTags } from '#server/sims/usage.ts';
import { usageAsOf } from '#server/usage/as-of.ts';
import { monthOf } from '#server/sims/views.ts';
import { ensurePartitions, partitionOf } from '#server/usage/partitions.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { clear } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const NOW = new Date('2026-11-28T12:00:00Z');
const MONTH = monthOf(NOW);
const HOUR = 3_600_000;

type Sim = {
  id: number;
  activatedAt: string;
  limitMb: number;
  mark: string;
  bytes: number | null;
  seen: number | null;
};
let sims: Sim[] = [];

beforeAll(async () => {
  const em = db.orm.em.fork();
  await clear(em);
  await ensurePartitions(em, [partitionOf('usage_month', MONTH), partitionOf('usage_month', '2026-10-01')]);
  // 40 more SIMs beside the demo's, on every plan, two marks (a search), some activated at the same instant.
  await em.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '89469770' || lpad(g::text, 12, '0'), ?, (select id from rate_plan order by id offset (g % 5) limit 1),
       case when g % 3 = 0 then 'Lastbil ' || g else 'Kassa ' || g end, '', 'active',
       timestamptz '2026-11-01T10:00:00Z' - (g / 2) * interval '1 hour'
     from generate_series(1, 40) g`,
    [db.companyId],
  );
  const rows = await em.execute<Array<{ id: number; activated_at: Date | string; data_limit: number; mark: string }>>(
    `select s.id, s.activated_at, r.data_limit, s.invoice_line_mark as mark from sim s join rate_plan r on r.id = s.rate_plan_id
     where s.company_id = ? and s.status = 'active'`,
    [db.companyId],
  );
  expect(rows.length).toBeGreaterThan(12);
  sims = rows.map((r, i) => {
    const limit = Number(r.data_limit);
    // Every few SIMs: none this month, equal amounts (ties), over 80 %, exactly 80 %, silent for a day or a week, never seen.
    const bytes =
      i % 5 === 0 ? null : i % 7 === 0 ? limit * 1e6 * 0.9 : i % 11 === 0 ? limit * 1e6 * 0.8 : (i % 4) * 1_000_000;
    const seen = i % 6 === 0 ? null : i % 6 === 1 ? 30 * HOUR : i % 6 === 2 ? 9 * 24 * HOUR : (i % 3) * HOUR;
    return {
      id: Number(r.id),
      activatedAt: new Date(r.activated_at).toISOString(),
      limitMb: limit,
      mark: r.mark,
      bytes,
      seen,
    };
  });
  for (const s of sims) {
    if (s.bytes !== null)
      await em.execute(
        `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records) values (?, ?, ?, ?, ?, 1)`,
        [db.companyId, s.id, MONTH, Math.floor(s.bytes / 4), s.bytes - Math.floor(s.bytes / 4)],
      );
    // Last month's figures are no part of this month's.
    await em.execute(
      `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records) values (?, ?, '2026-10-01', 5, 5, 1)`,
      [db.companyId, s.id],
    );
    if (s.seen !== null)
      await em.execute(
        `insert into usage_last_seen (company_id, sim_id, at, network, country) values (?, ?, ?, '24001', 'SE')`,
        [db.companyId, s.id, new Date(NOW.getTime() - s.seen)],
      );
  }
});

/** The view as JavaScript reads it: filtered, then sorted with the blanks last (in the list's order). */
function expected(view: ListView, match: (s: Sim) => boolean = () => true): number[] {
  const byList = (a: Sim, b: Sim) => b.activatedAt.localeCompare(a.activatedAt) || b.id - a.id;
  const at = (s: Sim) => (s.seen === null ? null : NOW.getTime() - s.seen);
  let list = sims.filter(match);
  if (view.filter === 'over80') list = list.filter((s) => s.bytes !== null && s.bytes * 10 > s.limitMb * 8e6);
  if (view.filter === 'silent24h') list = list.filter((s) => s.seen !== null && s.seen > 24 * HOUR);
  if (view.filter === 'silent7d') list = list.filter((s) => s.seen !== null && s.seen > 7 * 24 * HOUR);
  if (view.filter === 'never') list = list.filter((s) => s.seen === null);
  const [by, dir] = view.sort.split('-') as ['activated' | 'usage' | 'seen', 'asc' | 'desc'];
  const sign = dir === 'desc' ? -1 : 1;
  const key = (s: Sim) => (by === 'usage' ? s.bytes : by === 'seen' ? at(s) : null);
  return list
    .sort((a, b) => {
      if (by === 'activated') return sign * -byList(a, b);
      const ka = key(a);
      const kb = key(b);
      if (ka === null || kb === null) return ka === kb ? byList(a, b) : ka === null ? 1 : -1;
      return sign * (ka - kb) || sign * (a.id - b.id);
    })
    .map((s) => s.id);
}

const VIEWS: ListView[] = [
  ...SORTS.map((sort) => viewOf(sort, null)),
  ...FILTERS.flatMap((f) => FILTER_SORTS[f].map((sort) => viewOf(sort, f))),
];

describe('the list by usage', () => {
  it.each(VIEWS.map((v) => [`${v.sort} ${v.filter ?? ''}`, v] as const))(
    '%s: every page, its count and the export as JavaScript reads the data',
    async (_name, view) => {
      const em = db.orm.em.fork();
      const want = expected(view);
      const got: number[] = [];
      for (let offset = 0; offset < sims.length + 7; offset += 7) {
        const page = await listSims(em, db.companyId, { view, now: NOW, limit: 7, offset, withTotal: true });
        got.push(...page.items.map((s) => s.id));
        expect(page.total).toBe(view.filter ? want.length : sims.length);
        expect(page.exact).toBe(true);
      }
      expect(got).toEqual(want);
      const exported: number[] = [];
      for await (const batch of listSimBatches(em, db.companyId, { view, now: NOW, batchSize: 3 }))
        exported.push(...batch.map((s) => s.id));
      expect(exported).toEqual(want);
    },
  );

  it('with a search, in both its forms, lists the matches in the view', async () => {
    const em = db.orm.em.fork();
    const word = 'Lastbil';
    expect(word).not.toBe('');
    const match = (s: Sim) => s.mark.toLowerCase().includes(word.toLowerCase());
    for (const view of VIEWS)
      for (const form of ['walk', 'bitmap'] as const) {
        const page = await listSims(em, db.companyId, { q: word, view, form, now: NOW, limit: 100, offset: 0 });
        // The search also finds the word in the comment and the plan: the marks' matches are among them, in order.
        const ids = page.items.map((s) => s.id);
        const want = expected(view, (s) => ids.includes(s.id) || match(s));
        expect(ids, `${view.sort} ${view.filter} ${form}`).toEqual(want);
      }
  });

  it("reads each SIM's usage for a page at once: this month's bytes, the last sighting and how fresh the data is", async () => {
    const em = db.orm.em.fork();
    const listed = await withUsageAndTags(
      em,
      db.companyId,
      sims.map((s) => ({ id: s.id })),
      { now: NOW },
    );
    expect(listed.map((l) => l.id)).toEqual(sims.map((s) => s.id));
    const asOf = await usageAsOf(em, db.companyId);
    expect(asOf).not.toBeNull();
    for (const [i, s] of sims.entries()) {
      const u = listed[i]?.usage;
      expect(u?.monthBytes).toBe(s.bytes ?? 0);
      expect(u?.month).toBe('2026-11');
      expect(u?.lastSeenAt).toBe(s.seen === null ? null : new Date(NOW.getTime() - s.seen).toISOString());
      expect(u?.lastSeenCountry).toBe(s.seen === null ? null : 'SE');
      expect(u?.asOf).toBe(asOf?.toISOString());
      expect(listed[i]?.tags).toEqual([]);
    }
  });
});
