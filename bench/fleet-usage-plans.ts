// The plans of /sims' views at fleet size (docs/decisions/035): EXPLAIN (ANALYZE, BUFFERS) of each sort and filter's
// page and count, as server/sims/views.ts runs them, on the database bench/fleet-usage-seed.ts filled. Prints for each
// the execution time, the rows of the plan's top and the shared buffers hit and read.
//
//   FLEET_DB_URL=postgres://postgres@127.0.0.1:5432/fleet_usage  [FLEET_PLAN=text]  npx tsx bench/fleet-usage-plans.ts
import { viewOf, type ListView } from '#domain/sims/view.ts';
import { initOrm } from '#server/db/orm.ts';
import { listFilter } from '#server/sims/search.ts';
import { monthOf, viewStatements } from '#server/sims/views.ts';
import { LISTED_SQL, listedParams } from '#server/sims/usage.ts';

const url = process.env.FLEET_DB_URL;
if (!url) throw new Error('FLEET_DB_URL is needed');
const orm = await initOrm({ kind: 'postgres', url, prepare: false });
const em = orm.em.fork();
const [company] = await em.execute<Array<{ id: number }>>(
  `select company_id as id from sim group by 1 order by count(*) desc limit 1`,
);
const companyId = Number(company?.id);
const now = new Date();
const scope = { companyId, month: monthOf(now), now };

type Plan = { Plan: Record<string, unknown>; 'Execution Time': number };
async function explain(planner: string, sql: string, params: unknown[]): Promise<string> {
  return em.transactional(async (tx) => {
    await tx.execute(planner);
    const rows = await tx.execute<Array<Record<string, unknown>>>(
      `explain (analyze, buffers, format json) ${sql}`,
      params,
    );
    const first = rows[0]?.['QUERY PLAN'];
    const plan = (typeof first === 'string' ? JSON.parse(first) : first) as Plan[];
    const top = plan[0];
    if (!top) return '?';
    if (process.env.FLEET_PLAN === 'text') {
      const text = await tx.execute<Array<{ 'QUERY PLAN': string }>>(`explain (analyze, buffers) ${sql}`, params);
      console.log(text.map((r) => r['QUERY PLAN']).join('\n'));
    }
    const p = top.Plan;
    return `${top['Execution Time'].toFixed(1)} ms, ${String(p['Actual Rows'])} rows, buffers hit ${String(p['Shared Hit Blocks'])} read ${String(p['Shared Read Blocks'])}`;
  });
}

const cases: Array<[string, ListView, string, number]> = [
  ['usage desc', viewOf('usage-desc', null), '', 0],
  ['usage asc', viewOf('usage-asc', null), '', 0],
  ['usage desc page 100', viewOf('usage-desc', null), '', 4950],
  ['seen desc', viewOf('seen-desc', null), '', 0],
  ['seen asc', viewOf('seen-asc', null), '', 0],
  ['activated asc', viewOf('activated-asc', null), '', 0],
  ['over 80 %', viewOf(null, 'over80'), '', 0],
  ['silent 24 h', viewOf(null, 'silent24h'), '', 0],
  ['silent 7 d', viewOf(null, 'silent7d'), '', 0],
  ['silent 7 d, longest first', viewOf('seen-asc', 'silent7d'), '', 0],
  ['never', viewOf(null, 'never'), '', 0],
  ['usage desc, search "Lastbil"', viewOf('usage-desc', null), 'Lastbil', 0],
  ['silent 24 h, search "Lastbil 12"', viewOf(null, 'silent24h'), 'Lastbil 12', 0],
  ['over 80 %, search of 8 digits', viewOf(null, 'over80'), '12345678', 0],
];
for (const [name, view, q, offset] of cases) {
  const filter = await listFilter(em, companyId, q);
  const s = await em.transactional((tx) => viewStatements(tx, filter, view, scope, 50, offset));
  const page = await explain(s.planner, s.page.sql, s.page.params);
  const count = view.filter ? await explain(s.planner, s.count.sql, s.count.params) : "(the list's count)";
  console.log(`| ${name} | ${page} | ${count} |`);
}
const ids = await em.execute<Array<{ id: number }>>(
  `select id from sim where company_id = ? order by activated_at desc limit 50`,
  [companyId],
);
console.log(
  `| usage, tags and freshness of a page's 50 SIMs | ${await explain(
    'select 1',
    LISTED_SQL,
    listedParams(
      companyId,
      ids.map((r) => r.id),
      scope.month,
    ),
  )} | |`,
);
await orm.close(true);
