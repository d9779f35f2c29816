// Long: one benchmark run end to end (fleet seed, server, the list and search scenarios, the report).
// The portal at fleet size (npm run bench:data), on PostgreSQL: a fresh database on the machine's
// PostgreSQL (dropped at the end) seeded with SQL (bench/fleet.ts): Demo AB with 1,000,000 active SIMs and
// 10,000 companies of 100 SIMs beside it, one 'activated' event each. The built server (`node scripts/start.js`)
// answers 20 concurrent users for each scenario (first pages, searches of every kind, deep pages) for a few
// seconds each: p50 and p95 of /sims (the page, with its count) and of GET /api/sim/all. Beside it, in the same
// run, the SQL as it was before the fleet-scale work (four ILIKE, count(*), OFFSET; the queries the /sims page made: a page and its
// count at once) and the new SQL (server/sims/list.ts and search.ts), each straight on the database with 20 concurrent
// clients, so the gain is a ratio. Targets: p95 < 100 ms and p50 < 30 ms for every scenario through HTTP.
// Writes bench/results/data.json.
//
//   BENCH_DATA_SIMS=1000000  BENCH_DATA_COMPANIES=10000 (of 100 SIMs)  BENCH_USERS=20  BENCH_SECONDS=4 (a scenario)
//   BENCH_LEGACY=1 (0: skip today's SQL, which takes seconds a query)   BENCH_SMOKE=1 (20,000 SIMs, 100 companies)
//   BENCH_DATA_LIST=0 (skip the list, search and admin scenarios)   BENCH_DATA_PHASES=exports,history,overload (which)
import { SMOKE } from './env.ts';
import pg from 'pg';
import { Company, RatePlan } from '#server/db/entities.ts';
import { initOrm, migrate } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { listSims } from '#server/sims/list.ts';
import { listFilter } from '#server/sims/search.ts';
import {
  benchOnPostgres,
  firstRow,
  logger,
  machine,
  round,
  runBenchmark,
  serverEnv,
  startProcess,
  writeResult,
} from './lib.ts';
import { fleetIccid, seedFleet } from './fleet.ts';
import { exportsPhase } from './data-exports.ts';
import { overloadPhase } from './data-overload.ts';
import { historyPhase } from './data-history.ts';
import { loadWith, type DataPhaseContext, type PhaseResult } from './data-phase.ts';

/** The phases after the list and search scenarios, in this order (each a module of its own). */
const PHASES: Array<[string, (ctx: DataPhaseContext) => Promise<PhaseResult>]> = [
  ['exports', exportsPhase],
  ['history', historyPhase],
  ['overload', overloadPhase],
];
const ONLY_PHASES = process.env.BENCH_DATA_PHASES?.split(',').map((p) => p.trim());
const LIST = process.env.BENCH_DATA_LIST !== '0';

const log = logger('data');
const SIMS = Number(process.env.BENCH_DATA_SIMS ?? (SMOKE ? 20_000 : 1_000_000));
const COMPANIES = Number(process.env.BENCH_DATA_COMPANIES ?? (SMOKE ? 100 : 10_000));
const USERS = Number(process.env.BENCH_USERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 0.5 : 4));
const LEGACY = process.env.BENCH_LEGACY !== '0';
const PAGE = 50;
const TARGET = { p50: 30, p95: 100 };
/** A person's pause between two requests while searching and paging (BENCH_THINK_MS). */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);

/** The SQL as it was before the fleet-scale work (commit daf7ea8, server/sims/service.ts listSql), verbatim. */
const LEGACY_WHERE = (search: boolean) =>
  `s.company_id = $1 and s.status = 'active'` +
  (search
    ? ` and (s.iccid ilike $2 or s.invoice_line_mark ilike $2 or s.invoice_line_note ilike $2 or r.description ilike $2)`
    : '');
const LEGACY_COLUMNS = `s.id, s.iccid, s.invoice_line_mark, s.invoice_line_note, s.status,
  to_char(s.activated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as activated_at, r.id as plan_id, r.code, r.description, r.data_limit, r.call, r.sms, r.roaming, r.is_legacy`;
function legacyQueries(q: string, offset: number): Array<{ text: string; values: unknown[] }> {
  const search = q.trim() !== '';
  const values: unknown[] = [companyId];
  if (search) values.push(`%${q.trim().replace(/[\\%_]/g, (c) => '\\' + c)}%`);
  const n = values.length;
  return [
    {
      text: `select ${LEGACY_COLUMNS} from sim s join rate_plan r on r.id = s.rate_plan_id where ${LEGACY_WHERE(search)}
        order by s.activated_at desc, s.id desc limit $${n + 1} offset $${n + 2}`,
      values: [...values, PAGE, offset],
    },
    {
      text: search
        ? `select count(*)::int as n from sim s join rate_plan r on r.id = s.rate_plan_id where ${LEGACY_WHERE(true)}`
        : `select count(*)::int as n from sim s where ${LEGACY_WHERE(false)}`,
      values,
    },
  ];
}

let companyId = 0;

type Scenario = { name: string; q: string; page: number };

const load = loadWith({ users: USERS, seconds: SECONDS });

async function main(): Promise<{ pass: boolean }> {
  const { dataDir, pg: db, cleanup } = await benchOnPostgres('data', log);
  try {
    const t0 = performance.now();
    const orm = await initOrm(db.target);
    await migrate(orm);
    await seedDemo(orm.em.fork());
    const em = orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    companyId = demo.id;
    log(`seeding ${SIMS} SIMs for Demo AB and ${COMPANIES} companies of 100 beside it`);
    await seedFleet(em, { companyId, sims: SIMS, smallCompanies: COMPANIES, simsPerSmall: 100, usersPerSmall: 10 });
    const seedMs = Math.round(performance.now() - t0);
    log(`seeded and indexed in ${seedMs} ms`);

    const admin = firstRow(
      await em.execute<{ id: number }[]>(`select id from app_user where email = 'admin@demo.test'`),
    );
    const cookie = `sim_session=${await signedInSession(em, admin.id, { actingCompanyId: companyId })}`;
    // The super admin as staff (not acting as a company): the /admin lists.
    const staff = `sim_session=${await signedInSession(em, admin.id)}`;
    const smallId = (
      await em.execute<{ id: number }[]>(
        `select id from company where customer_number = 'SMA-' || least(4321, ${COMPANIES})`,
      )
    )[0]?.id;
    const plans = await em.find(RatePlan, { isLegacy: false });
    // Picks: an ICCID in the middle of the fleet; a mark that about 200 SIMs share; a plan description; and a
    // text in about half of the fleet (checked below).
    const iccid = fleetIccid(Math.floor(SIMS / 2) + 7);
    const shared = firstRow(
      await em.execute<{ m: string; n: number }[]>(
        `select invoice_line_mark as m, count(*)::int as n from sim where company_id = ? and status = 'active'
       group by 1 order by abs(count(*) - 200), 1 limit 1`,
        [companyId],
      ),
    );
    const plan = plans.find((p) => p.description === 'Data 5 GB') ?? firstRow(plans);
    const total = firstRow(
      await em.execute<{ n: number }[]>(
        `select count(*)::int as n from sim where company_id = ? and status = 'active'`,
        [companyId],
      ),
    ).n;
    const lastPage = Math.max(1, Math.ceil(total / PAGE));
    const scenarios: Scenario[] = [
      { name: 'first page (no search)', q: '', page: 1 },
      { name: 'full ICCID', q: iccid, page: 1 },
      { name: 'last 8 digits', q: iccid.slice(-8), page: 1 },
      { name: 'last 4 digits', q: iccid.slice(-4), page: 1 },
      { name: '6 digits in the middle', q: iccid.slice(8, 14), page: 1 },
      { name: 'a word of a mark', q: 'Kassa', page: 1 },
      { name: `a mark ${shared.n} SIMs share`, q: shared.m, page: 1 },
      { name: 'a plan description', q: plan.description, page: 1 },
      { name: 'matches nothing', q: 'xyzzy-ingen', page: 1 },
      { name: 'half the fleet', q: 'Avtal', page: 1 },
      { name: 'page 100', q: '', page: 100 },
      { name: 'page 10,000', q: '', page: Math.min(10_000, lastPage) },
      { name: 'the last page', q: '', page: lastPage },
    ];
    // How much of the fleet each search matches (for the table; one exact count each, before the runs).
    const share: Record<string, number> = {};
    for (const s of scenarios) {
      if (!s.q) continue;
      const f = await listFilter(em, companyId, s.q);
      const r = firstRow(
        await em.execute<{ n: number }[]>(`select count(*)::int as n from sim s where ${f.where}`, f.params),
      );
      share[s.name] = round(r.n / total, 4);
    }
    await orm.close(true);

    const server = await startProcess({ ...serverEnv(db.target, dataDir), LOG_LEVEL: 'warn' }, { name: 'portal' });
    const pool = new pg.Pool({ connectionString: db.target.url, max: USERS, statement_timeout: 60_000 });
    const newOrm = await initOrm({ ...db.target, prepare: false });
    try {
      const get = (path: string) => async () => {
        const res = await fetch(server.url + path, { headers: { cookie } });
        await res.arrayBuffer();
        return res.status === 200;
      };
      const pageUrl = (s: Scenario) => {
        const p = new URLSearchParams();
        if (s.q) p.set('q', s.q);
        if (s.page > 1) p.set('page', String(s.page));
        return `/sims${p.size ? `?${p}` : ''}`;
      };
      const apiUrl = (s: Scenario) => {
        const p = new URLSearchParams({ limit: String(PAGE), offset: String((s.page - 1) * PAGE) });
        if (s.q) p.set('q', s.q);
        return `/api/sim/all?${p}`;
      };
      // Warm up: every URL once.
      for (const s of LIST ? scenarios : []) {
        await get(pageUrl(s))();
        await get(apiUrl(s))();
      }
      const rows: Array<Record<string, unknown>> = [];
      for (const s of LIST ? scenarios : []) {
        // At a person's pace (the targets), and back to back (what the machine can do at most).
        const page = await load(get(pageUrl(s)), { thinkMs: THINK_MS, seconds: SECONDS * 2 });
        const api = await load(get(apiUrl(s)), { thinkMs: THINK_MS, seconds: SECONDS * 2 });
        const pageBurst = await load(get(pageUrl(s)));
        const apiBurst = await load(get(apiUrl(s)));
        // The new SQL straight on the database: what /sims asks (a page and its count at once).
        const offset = (s.page - 1) * PAGE;
        const sqlNew = await load(async () => {
          const r = await listSims(newOrm.em.fork(), companyId, { q: s.q, limit: PAGE, offset, withTotal: true });
          return r.items.length > 0 || share[s.name] === 0;
        });
        // Today's SQL: one round (each of the users once), bounded by a statement timeout.
        const sqlOld = LEGACY
          ? await load(
              async () => {
                await Promise.all(legacyQueries(s.q, offset).map((q) => pool.query(q)));
                return true;
              },
              { minEach: 1, seconds: 0 },
            )
          : null;
        const row = {
          scenario: s.name,
          q: s.q,
          page: s.page,
          share: share[s.name] ?? 1,
          page_http: page,
          api_http: api,
          page_http_back_to_back: pageBurst,
          api_http_back_to_back: apiBurst,
          sql_new: sqlNew,
          sql_old: sqlOld,
          ratio_p50: sqlOld ? round(sqlOld.p50 / Math.max(sqlNew.p50, 0.1), 1) : null,
          pass: page.p95 < TARGET.p95 && page.p50 < TARGET.p50 && api.p95 < TARGET.p95 && api.p50 < TARGET.p50,
        };
        rows.push(row);
        log(
          `${s.name.padEnd(26)} /sims p50 ${page.p50} p95 ${page.p95} | API p50 ${api.p50} p95 ${api.p95} | back to back /sims ${pageBurst.p50} API ${apiBurst.p50} | SQL new p50 ${sqlNew.p50} | today ${sqlOld ? `p50 ${sqlOld.p50} p95 ${sqlOld.p95}` : '-'} ms${row.pass ? '' : '  MISSED'}`,
        );
      }
      // The admin's lists at 10,000 companies and 100,000 users: the pages and the API, at a person's pace.
      const adminRows: Array<Record<string, any>> = [];
      const admin = (path: string) => async () => {
        const res = await fetch(server.url + path, { headers: { cookie: staff } });
        await res.arrayBuffer();
        return res.status === 200;
      };
      const ADMIN_SCENARIOS = [
        ['companies, first page', '/admin/companies', '/api/admin/getCompanies?limit=50'],
        ['companies, page 100', '/admin/companies?page=100', '/api/admin/getCompanies?limit=50&offset=4950'],
        ['companies, a search', '/admin/companies?q=bolag%20432', '/api/admin/getCompanies?q=bolag%20432&limit=50'],
        ['companies, no match', '/admin/companies?q=xyzzy', '/api/admin/getCompanies?q=xyzzy&limit=50'],
        ['a company and its users', `/admin/companies/${smallId}`, `/api/admin/getCompany/${smallId}`],
        ['its users, a search', `/admin/companies/${smallId}?q=person`, `/api/admin/getCompany/${smallId}?q=person`],
      ] as const;
      for (const [name, page, api] of LIST ? ADMIN_SCENARIOS : []) {
        const p = await load(admin(page), { thinkMs: THINK_MS, seconds: SECONDS * 2 });
        const a = await load(admin(api), { thinkMs: THINK_MS, seconds: SECONDS * 2 });
        const ok = p.p95 < 100 && a.p95 < 100 && p.errors === 0 && a.errors === 0;
        adminRows.push({ scenario: name, page_http: p, api_http: a, pass: ok });
        log(
          `admin: ${name.padEnd(24)} page p50 ${p.p50} p95 ${p.p95} | API p50 ${a.p50} p95 ${a.p95} ms${ok ? '' : '  MISSED'}`,
        );
      }
      // The phases: exports, history, overload (bench/data-*.ts), on the same data and server.
      const ctx: DataPhaseContext = {
        server,
        dbUrl: db.target.url,
        companyId,
        sims: SIMS,
        cookie,
        staffCookie: staff,
        users: USERS,
        seconds: SECONDS,
        thinkMs: THINK_MS,
        smoke: SMOKE,
        log,
        load,
      };
      const phases: PhaseResult[] = [];
      for (const [name, phase] of PHASES) {
        if (ONLY_PHASES && !ONLY_PHASES.includes(name)) continue;
        const r = await phase(ctx);
        phases.push(r);
        log(`${r.name}: ${r.pass ? 'targets met' : 'a target was MISSED'}`);
      }
      const pass = rows.every((r) => r.pass) && adminRows.every((r) => r.pass) && phases.every((p) => p.pass);
      console.log(
        `\n${USERS} users; /sims and API at a person's pace (${THINK_MS} ms between requests); back to back and SQL: no pause; ms`,
      );
      console.log(
        '| scenario | share of fleet | /sims p50 / p95 | API p50 / p95 | back to back /sims / API p50 | new SQL p50 / p95 | today p50 / p95 | today / new (p50) |',
      );
      console.log('|---|---|---|---|---|---|---|---|');
      for (const r of rows as Array<Record<string, any>>)
        console.log(
          `| ${r.scenario} | ${Math.round(r.share * 1000) / 10} % | ${r.page_http.p50} / ${r.page_http.p95} | ${r.api_http.p50} / ${r.api_http.p95} | ${r.page_http_back_to_back.p50} / ${r.api_http_back_to_back.p50} | ${r.sql_new.p50} / ${r.sql_new.p95} | ${r.sql_old ? `${r.sql_old.p50} / ${r.sql_old.p95}` : '-'} | ${r.ratio_p50 ?? '-'}x |`,
        );
      console.log('\n| admin (10,000 companies, 100,000 users) | page p50 / p95 | API p50 / p95 |');
      console.log('|---|---|---|');
      for (const r of adminRows)
        console.log(
          `| ${r.scenario} | ${r.page_http.p50} / ${r.page_http.p95} | ${r.api_http.p50} / ${r.api_http.p95} |`,
        );
      for (const p of phases) console.log(['', ...p.table].join('\n'));
      const file = writeResult('data', {
        machine: machine(),
        sims: SIMS,
        companies: COMPANIES,
        total,
        users: USERS,
        thinkMs: THINK_MS,
        seconds: SECONDS,
        seedMs,
        targets: TARGET,
        rows,
        admin: adminRows,
        phases: phases.map(({ name, rows, pass }) => ({ name, rows, pass })),
        pass,
      });
      log(`${pass ? 'all targets met' : 'a target was MISSED'}; wrote ${file}`);
      return { pass };
    } finally {
      await newOrm.close(true);
      await pool.end();
      await server.stop();
    }
  } finally {
    await cleanup();
  }
}

runBenchmark(main);
