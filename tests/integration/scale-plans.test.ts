// On PostgreSQL with 200,000 SIMs in one company (and 1,000 companies of 100 beside it), every statement
// the SIM list makes (a search's page and count, the whole list's page and total, a deep page) reads indexes, never
// the whole sim table: the plans are read with EXPLAIN, and each answer comes within a bound generous enough for
// a loaded CI machine. Skipped on PGlite: the plans are PostgreSQL's, and bench:data measures the speed.
import { beforeAll, describe, expect, it } from 'vitest';
import { fleetIccid, seedFleet } from '#bench/fleet.ts';
import type { Orm } from '#server/db/orm.ts';
import { DAY_OF_OFFSET_SQL, listSims, PAGE_FROM_DAY_SQL } from '#server/sims/list.ts';
import { listFilter, listSql, PLANNER, searchForm, searchPageAndCount, WHOLE_LIST } from '#server/sims/search.ts';
import { monthOf, viewStatements } from '#server/sims/views.ts';
import { viewOf } from '#domain/sims/view.ts';
import { SPEC_BATCH_SQL } from '#server/export/invoice-specification.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';

const SIMS = 200_000;
let orm: Orm;
let company: number;

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** The plan's nodes of a statement, run with its values (EXPLAIN ANALYZE: the plan that really ran). */
async function planOf(sql: string, params: unknown[], planner?: string): Promise<PlanNode[]> {
  const [row] = await orm.em.fork().transactional(async (tx) => {
    if (planner) await tx.execute(planner);
    return tx.execute<Array<{ 'QUERY PLAN': unknown }>>(`explain (analyze, format json) ${sql}`, params);
  });
  const plan = row!['QUERY PLAN'];
  const json = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
  return nodes(json[0]!.Plan);
}

const SIM_INDEXES = /^sim_(list|iccid_trgm|mark_trgm|note_trgm|company_plan|never_seen)_index$|^sim_pkey$/;
const seqScansOfSim = (plan: PlanNode[]) =>
  plan.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'sim');
/** Rows each scan of sim or its indexes read (kept and thrown away): none may read a tenth of the fleet. */
const wideScans = (plan: PlanNode[]) =>
  plan
    .filter((n) => n['Relation Name'] === 'sim' || SIM_INDEXES.test(n['Index Name'] ?? ''))
    .map((n) => ({
      node: `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']}`,
      rows:
        ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
        (n['Actual Loops'] ?? 1),
    }))
    .filter((x) => x.rows > SIMS / 10);

needs(describe, 'PostgreSQL')('the SIM list at 200,000 SIMs reads indexes (PostgreSQL)', () => {
  const db = useDemoOrm();
  beforeAll(async () => {
    orm = db.orm;
    company = db.companyId;
    await seedFleet(orm.em.fork(), { companyId: company, sims: SIMS, smallCompanies: 1_000, simsPerSmall: 100 });
  }, 300_000);

  const iccid = fleetIccid(SIMS / 2 + 3);
  const searches = [
    iccid,
    iccid.slice(-8),
    iccid.slice(-4),
    iccid.slice(8, 14),
    'Kassa',
    'Kassa 1234',
    'Avtal',
    'nix-ingenting',
  ];

  it.each(searches)('the search %j: its page and count, and a page past the count, use indexes', async (q) => {
    const filter = await listFilter(orm.em.fork(), company, q);
    // The form the probe picks for this search, as listSims runs it.
    const form = await searchForm(orm.em.fork(), filter);
    const chosen = { ...filter, where: filter[form]! };
    const { page, count } = listSql(chosen);
    for (const [sql, params] of [
      [searchPageAndCount(chosen.where), [...filter.params, 50, 0]],
      [count, filter.params],
      [page, [...filter.params, 50, 2000]],
    ] as const) {
      const plan = await planOf(sql, [...params], PLANNER[form]);
      expect(seqScansOfSim(plan), `${q}: ${sql}`).toEqual([]);
      expect(wideScans(plan), `${q}: ${sql}`).toEqual([]);
    }
    const t = performance.now();
    const r = await listSims(orm.em.fork(), company, { q, limit: 50, offset: 0, withTotal: true });
    expect(performance.now() - t).toBeLessThan(5_000);
    if (q === iccid) expect(r.items.map((s) => s.iccid)).toEqual([iccid]);
    if (q === 'nix-ingenting') expect(r).toMatchObject({ items: [], total: 0, exact: true });
  });

  it("the invoice specification's batches: the next 100 SIMs by id, never the company's whole index", async () => {
    const [mid] = await orm.em
      .fork()
      .execute<Array<{ id: number }>>(`select id from sim where company_id = ? order by id offset ? limit 1`, [
        company,
        SIMS / 2,
      ]);
    const from = new Date(Date.now() - 40 * 86_400_000);
    for (const after of [0, Number(mid!.id)]) {
      const plan = await planOf(SPEC_BATCH_SQL, [company, after, new Date(), from, 100]);
      expect(seqScansOfSim(plan)).toEqual([]);
      expect(wideScans(plan)).toEqual([]);
    }
  });

  it('the whole list: its total from the daily counts, first and deep pages by index', async () => {
    const { page, count } = listSql(WHOLE_LIST);
    const counted = await planOf(count, [company]);
    expect(counted.some((n) => n['Relation Name'] === 'sim')).toBe(false);
    const first = await planOf(page, [company, 50, 0]);
    expect(seqScansOfSim(first)).toEqual([]);
    expect(wideScans(first)).toEqual([]);
    const offset = SIMS / 2;
    const [at] = await orm.em
      .fork()
      .execute<Array<{ day: string; before: number }>>(DAY_OF_OFFSET_SQL, [company, offset]);
    const deep = await planOf(PAGE_FROM_DAY_SQL, [company, at!.day, 50, offset - at!.before]);
    expect(seqScansOfSim(deep)).toEqual([]);
    expect(wideScans(deep)).toEqual([]);
    // Walking the offset instead reads half the fleet: what the daily counts spare.
    expect(wideScans(await planOf(page, [company, 50, offset]))).not.toEqual([]);
    for (const o of [0, 50 * 99, offset, SIMS - 50]) {
      const t = performance.now();
      const r = await listSims(orm.em.fork(), company, { limit: 50, offset: o, withTotal: true });
      expect(performance.now() - t).toBeLessThan(5_000);
      expect(r).toMatchObject({ exact: true });
      expect(r.total).toBeGreaterThanOrEqual(SIMS);
      expect(r.items).toHaveLength(50);
    }
  });

  // Last: it marks the fleet seen. A fleet the network has seen but for three SIMs: the filter "never" (and its
  // count) walks the never-seen SIMs' own index, never the fleet looking for SIMs without a sighting (522 ms at
  // 1,000,000 SIMs, and a saturated pool with 20 people, before ever_seen).
  it('"never seen" on a fleet seen but for three SIMs reads those three, not the fleet', async () => {
    const em = orm.em.fork();
    const unseen = await em.execute<Array<{ id: number }>>(
      `select id from sim where company_id = ? and status = 'active' order by id offset 1000 limit 3`,
      [company],
    );
    await em.execute(
      `insert into usage_last_seen (company_id, sim_id, at, network, country)
       select company_id, id, now(), '24001', 'SE' from sim
       where company_id = ? and status = 'active' and id not in (${unseen.map((r) => Number(r.id)).join(', ')})
       on conflict do nothing`,
      [company],
    );
    await em.execute('analyze sim');
    const view = viewOf('activated-desc', 'never');
    const now = new Date();
    const { planner, page, count } = await em.transactional(async (tx) =>
      viewStatements(
        tx,
        await listFilter(tx, company, undefined),
        view,
        { companyId: company, month: monthOf(now), now },
        50,
        0,
      ),
    );
    for (const [sql, params] of [
      [page.sql, page.params],
      [count.sql, count.params],
    ] as const) {
      const plan = await planOf(sql, [...params], planner);
      expect(seqScansOfSim(plan), sql).toEqual([]);
      expect(wideScans(plan), sql).toEqual([]);
      expect(
        plan.some((n) => n['Index Name'] === 'sim_never_seen_index'),
        sql,
      ).toBe(true);
      expect(
        plan.some((n) => n['Relation Name'] === 'usage_last_seen'),
        sql,
      ).toBe(false);
    }
    const listed = await listSims(em, company, { view, now, limit: 50, offset: 0, withTotal: true });
    expect(listed.items.map((s) => s.id).sort((a, b) => a - b)).toEqual(unseen.map((r) => Number(r.id)));
    expect(listed).toMatchObject({ total: 3, exact: true });
  });
});
