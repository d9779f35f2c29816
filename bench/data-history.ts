// Long: the history phase's seeding of 10,000,000 events and its measured reads belong to one run.
// bench:data's history phase: SIM history and audit trails at 10,000,000 SIM events and 1,000,000
// audit events. Seeds the events beyond the fleet's own with SQL (plan changes and edits spread over Demo AB's
// SIMs, a hundred SIMs with thousands each; audit rows of every kind in Demo AB, small companies and the staff),
// then measures at a person's pace through HTTP: the SIM page and GET /api/sim/{id} (a SIM with 20,000 events and
// an ordinary one, and an older page of the long history), /company/activity and its API (first page, the rarest
// kind, a deep page) and the super admin's /admin/audit and its API. Target: p95 < 50 ms for each.
//
//   BENCH_HISTORY_SIM_EVENTS=10000000  BENCH_HISTORY_AUDIT_EVENTS=1000000  (BENCH_SMOKE=1: 200,000 and 50,000)
import pg from 'pg';
import type { DataPhaseContext, PhaseResult, Stats } from './data-phase.ts';
import { firstRow } from './lib.ts';

const TARGET_P95 = 50;

export type HistorySeed = {
  /** Demo AB's SIM with the most events, and an ordinary one (a few). */
  hotSimId: number;
  ordinarySimId: number;
  /** An event id halfway down the hot SIM's history (an older page: ?before=). */
  hotMiddleEventId: number;
  /** An audit id halfway down Demo AB's trail (a deep page: ?before=). */
  middleAuditId: number;
  simEvents: number;
  auditEvents: number;
  seedMs: number;
};

/** The indexes of a table but its primary key, dropped before a bulk insert and made again after (as a restore). */
async function dropIndexes(c: pg.Client, table: string): Promise<string[]> {
  const { rows } = await c.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = $1 and indexname not like '%pkey'`,
    [table],
  );
  for (const r of rows) await c.query(`drop index "${r.indexname}"`);
  return rows.map((r) => r.indexdef);
}

const count = async (c: pg.Client, table: string) =>
  Number(firstRow((await c.query<{ n: string }>(`select count(*) as n from ${table}`)).rows).n);

/**
 * Adds SIM events up to `simEvents` and audit events up to `auditEvents` (what is there already counts). Demo AB's
 * SIMs get them: one SIM `hot` events, `heavy` SIMs `perHeavy` each, the rest spread over all its SIMs (every
 * third a plan change, the others an edit of the mark), each after its SIM's activation.
 */
export async function seedHistory(
  dbUrl: string,
  opts: {
    companyId: number;
    simEvents: number;
    auditEvents: number;
    hot?: number;
    heavy?: number;
    perHeavy?: number;
    log?: (...a: unknown[]) => void;
  },
): Promise<HistorySeed> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    await c.query(`set statement_timeout = 0`);
    const company = Math.trunc(opts.companyId);
    const users = (
      await c.query<{ id: number }>(`select id from app_user where company_id = $1 order by id`, [company])
    ).rows.map((r) => r.id);
    const admin = firstRow(
      (await c.query<{ id: number }>(`select id from app_user where is_super_admin order by id limit 1`)).rows,
    ).id;
    const plans = (
      await c.query<{ id: number; code: string }>(`select id, code from rate_plan where not is_legacy order by id`)
    ).rows;
    await c.query(`create temp table hs as
      select (row_number() over (order by id))::int as rn, id, activated_at from sim where company_id = ${company} and status = 'active'`);
    await c.query(`create index on hs (rn)`);
    await c.query(`analyze hs`);
    const n = Number(firstRow((await c.query<{ n: number }>(`select count(*)::int as n from hs`)).rows).n);
    if (n < 1000) throw new Error(`Demo AB has ${n} SIMs: seed the fleet first`);
    const have = await count(c, 'sim_event');
    // A database seeded before (a second run on it) is measured as it is.
    const more = have < opts.simEvents;
    const simIndexes = more ? await dropIndexes(c, 'sim_event') : [];
    const hot = more ? Math.trunc(opts.hot ?? 20_000) : 0;
    const heavy = more ? Math.trunc(opts.heavy ?? 99) : 0;
    const perHeavy = Math.trunc(opts.perHeavy ?? 5_000);
    const spread = Math.max(0, Math.trunc(opts.simEvents) - have - hot - heavy * perHeavy);
    const planIds = `{${plans.map((p) => p.id).join(',')}}`;
    const planCodes = `{${plans.map((p) => `"${p.code}"`).join(',')}}`;
    const userIds = `{${users.join(',')}}`;
    // One event of SIM row `rn` number g (g numbers the event, k its place in the SIM's history of m).
    const eventSql = (from: string, sim: string, k: string, m: string) => `
      insert into sim_event (sim_id, kind, rate_plan_id, by_id, at, before, after)
      select s.id, case when g % 3 = 0 then 'planChanged' else 'updated' end,
        ($1::int[])[1 + g % ${plans.length}],
        case when g % 4 = 0 then null else ($3::int[])[1 + g % ${Math.max(1, users.length)}] end,
        s.activated_at + (now() - s.activated_at) * ((${k})::float8 / (${m} + 1)),
        case when g % 3 = 0 then jsonb_build_object('ratePlan', ($2::text[])[1 + (g + 1) % ${plans.length}])
          else jsonb_build_object('invoiceLineMark', 'Märkning ' || (g - 1)) end,
        case when g % 3 = 0 then jsonb_build_object('ratePlan', ($2::text[])[1 + g % ${plans.length}])
          else jsonb_build_object('invoiceLineMark', 'Märkning ' || g) end
      ${from} join hs s on s.rn = ${sim}`;
    const params = [planIds, planCodes, userIds];
    // The hot SIM: in the middle of the list; the heavy ones spread over it.
    const hotRn = Math.floor(n / 2);
    log(`history: ${hot} events on one SIM, ${heavy} SIMs of ${perHeavy}, ${spread} spread over ${n} SIMs`);
    if (hot > 0) await c.query(eventSql(`from generate_series(1, ${hot}) g`, String(hotRn), 'g', String(hot)), params);
    if (heavy > 0)
      await c.query(
        eventSql(
          `from generate_series(1, ${heavy}) h cross join generate_series(1, ${perHeavy}) g`,
          `1 + (h * ${Math.floor(n / (heavy + 1))})`,
          'g',
          String(perHeavy),
        ),
        params,
      );
    // Spread in chunks of 1,000,000 (each a statement of its own: WAL and memory stay bounded).
    for (let done = 0; done < spread; done += 1_000_000) {
      const size = Math.min(1_000_000, spread - done);
      await c.query(
        eventSql(
          `from generate_series(${done + 1}, ${done + size}) g`,
          `1 + ((g::bigint * 7919) % ${n})`,
          '(g % 10)',
          '10',
        ),
        params,
      );
      log(`history: ${done + size} of ${spread} spread events`);
    }
    for (const def of simIndexes) await c.query(def);

    // Audit: Demo AB 60 %, the staff company 2 %, 1,000 small companies the rest; every kind, the last rare.
    const auditHave = await count(c, 'audit_event');
    const audits = Math.max(0, Math.trunc(opts.auditEvents) - auditHave);
    const auditIndexes = audits > 0 ? await dropIndexes(c, 'audit_event') : [];
    const staff = (await c.query<{ id: number }>(`select id from company where is_staff limit 1`)).rows[0]?.id ?? null;
    const small = firstRow(
      (
        await c.query<{ lo: number; n: number }>(
          `select min(id)::int as lo, count(*)::int as n from (select id from company where not is_staff and id <> $1 order by id limit 1000) x`,
          [company],
        )
      ).rows,
    );
    const kindOf = `case
      when g % 1000 = 999 then 'company' when g % 100 < 50 then 'simActivated' when g % 100 < 70 then 'simUpdated'
      when g % 100 < 80 then 'simDeactivated' when g % 100 < 85 then 'bulk' when g % 100 < 93 then 'user'
      when g % 100 < 96 then 'apiKey' when g % 100 < 98 then 'webhook' else 'support' end`;
    if (audits > 0)
      await c.query(
        `insert into audit_event (who_id, acting_company_id, company_id, kind, action, target_type, target_id, before, after, at)
       select case when k in ('support', 'company') or co = ${staff ?? 'null'} then ${admin}
                   when g % 5 = 0 then null else ($1::int[])[1 + g % ${Math.max(1, users.length)}] end,
         case when k = 'support' then co end, co, k,
         case k when 'simActivated' then 'simActivated' when 'simUpdated' then 'simUpdated'
           when 'simDeactivated' then 'simDeactivated' when 'bulk' then 'bulkActivate' when 'user' then 'updateUser'
           when 'apiKey' then 'createApiKey' when 'webhook' then 'webhookCreated' when 'support' then 'loginAsCompany'
           else 'updateCompany' end,
         case when k like 'sim%' then 'Sim' when k = 'user' then 'User' else 'Company' end, (g % 100000)::text,
         case when k = 'simUpdated' then jsonb_build_object('invoiceLineMark', 'Märkning ' || (g - 1)) end,
         case when k like 'sim%' then jsonb_build_object('iccid', '8946' || lpad(g::text, 16, '0'))
              when k = 'bulk' then jsonb_build_object('done', g % 1000, 'total', 1000)
              when k = 'user' then jsonb_build_object('name', 'Person ' || g, 'email', 'person' || g || '@demo.test', 'role', 'member')
              when k = 'apiKey' then jsonb_build_object('name', 'Nyckel ' || g, 'scope', 'read')
              when k = 'webhook' then jsonb_build_object('url', 'https://hooks.example.com/' || g)
              else '{}'::jsonb end
           || case when g % 5 = 0 and not (k in ('support', 'company')) then '{"by":"cli"}'::jsonb else '{}'::jsonb end,
         now() - (${audits} - g) * interval '2 seconds'
       from (select g, ${kindOf} as k,
               case when (g / 7) % 50 = 0 then ${staff ?? company} when (g / 7) % 5 < 3 then ${company}
                    else ${small.lo} + (g % ${Math.max(1, small.n)}) end as co
             from generate_series(1, ${audits}) g) x`,
        [userIds],
      );
    for (const def of auditIndexes) await c.query(def);
    if (more || audits > 0) {
      log('history: vacuum analyze');
      await c.query(`vacuum analyze sim_event`);
      await c.query(`vacuum analyze audit_event`);
    }

    const hotSimId = firstRow((await c.query<{ id: number }>(`select id from hs where rn = $1`, [hotRn])).rows).id;
    const ordinary = (
      await c.query<{ id: number }>(
        `select s.id from hs s where s.rn = $1 + 7 and (select count(*) from sim_event e where e.sim_id = s.id) < 50`,
        [hotRn],
      )
    ).rows[0]?.id;
    const hotMiddleEventId = firstRow(
      (
        await c.query<{ id: number }>(
          `select id from sim_event where sim_id = $1 order by at desc, id desc offset $2 limit 1`,
          [hotSimId, Math.floor(hot / 2)],
        )
      ).rows,
    ).id;
    const middleAuditId = firstRow(
      (
        await c.query<{ id: number }>(
          `select id from audit_event where company_id = $1 order by id desc offset $2 limit 1`,
          [company, Math.floor((audits || auditHave) * 0.3)],
        )
      ).rows,
    ).id;
    return {
      hotSimId,
      ordinarySimId: ordinary ?? firstRow((await c.query<{ id: number }>(`select id from hs where rn = 3`)).rows).id,
      hotMiddleEventId,
      middleAuditId,
      simEvents: await count(c, 'sim_event'),
      auditEvents: await count(c, 'audit_event'),
      seedMs: Math.round(performance.now() - t0),
    };
  } finally {
    await c.end();
  }
}

export async function historyPhase(ctx: DataPhaseContext): Promise<PhaseResult> {
  const simEvents = Number(process.env.BENCH_HISTORY_SIM_EVENTS ?? (ctx.smoke ? 200_000 : 10_000_000));
  const auditEvents = Number(process.env.BENCH_HISTORY_AUDIT_EVENTS ?? (ctx.smoke ? 50_000 : 1_000_000));
  ctx.log(`history: seeding up to ${simEvents} SIM events and ${auditEvents} audit events`);
  const seed = await seedHistory(ctx.dbUrl, {
    companyId: ctx.companyId,
    simEvents,
    auditEvents,
    ...(ctx.smoke ? { hot: 2_000, heavy: 9, perHeavy: 500 } : {}),
    log: ctx.log,
  });
  ctx.log(
    `history: ${seed.simEvents} SIM events, ${seed.auditEvents} audit events (seeded in ${seed.seedMs} ms); SIM ${seed.hotSimId} has the most`,
  );
  const customer = await (async () => {
    const c = new pg.Client({ connectionString: ctx.dbUrl });
    await c.connect();
    try {
      return firstRow(
        (await c.query<{ n: string }>(`select customer_number as n from company where id = $1`, [ctx.companyId])).rows,
      ).n;
    } finally {
      await c.end();
    }
  })();
  const get = (path: string, cookie: string) => async () => {
    const res = await fetch(ctx.server.url + path, { headers: { cookie } });
    await res.arrayBuffer();
    return res.status === 200;
  };
  const scenarios: Array<[string, string, string]> = [
    ['SIM page, 20,000 events', `/sims/${seed.hotSimId}`, ctx.cookie],
    ['SIM page, an older page', `/sims/${seed.hotSimId}?before=${seed.hotMiddleEventId}`, ctx.cookie],
    ['SIM page, an ordinary SIM', `/sims/${seed.ordinarySimId}`, ctx.cookie],
    ['GET /api/sim/{id}, 20,000 events', `/api/sim/${seed.hotSimId}`, ctx.cookie],
    ['GET /api/sim/{id}, ordinary', `/api/sim/${seed.ordinarySimId}`, ctx.cookie],
    ['/company/activity', '/company/activity', ctx.cookie],
    ['/company/activity, rarest kind', '/company/activity?kind=company', ctx.cookie],
    ['/company/activity, a kind', '/company/activity?kind=simDeactivated', ctx.cookie],
    ['/company/activity, deep page', `/company/activity?before=${seed.middleAuditId}`, ctx.cookie],
    ['GET /api/company/audit, rarest kind', '/api/company/audit?kind=company', ctx.cookie],
    ['/admin/audit', '/admin/audit', ctx.staffCookie],
    ['/admin/audit, rarest kind', '/admin/audit?kind=company', ctx.staffCookie],
    ['/admin/audit, a company', `/admin/audit?company=${customer}`, ctx.staffCookie],
    [
      '/admin/audit, company and kind, deep',
      `/admin/audit?company=${customer}&kind=user&before=${seed.middleAuditId}`,
      ctx.staffCookie,
    ],
    ['GET /api/admin/audit', '/api/admin/audit', ctx.staffCookie],
    ['GET /api/admin/audit, deep page', `/api/admin/audit?before=${seed.middleAuditId}`, ctx.staffCookie],
  ];
  for (const [, path, cookie] of scenarios) await get(path, cookie)(); // warm up
  const rows: Array<{ scenario: string; path: string; http: Stats; pass: boolean }> = [];
  for (const [name, path, cookie] of scenarios) {
    const http = await ctx.load(get(path, cookie), { thinkMs: ctx.thinkMs, seconds: ctx.seconds * 2 });
    const pass = http.p95 < TARGET_P95 && http.errors === 0;
    rows.push({ scenario: name, path, http, pass });
    ctx.log(`history: ${name.padEnd(38)} p50 ${http.p50} p95 ${http.p95} ms${pass ? '' : '  MISSED'}`);
  }
  const table = [
    `History and trails at ${seed.simEvents.toLocaleString('en')} SIM events and ${seed.auditEvents.toLocaleString('en')} audit events (${ctx.users} users at a person's pace; target p95 < ${TARGET_P95} ms)`,
    '',
    '| scenario | p50 / p95 ms | requests | errors |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.http.p50} / ${r.http.p95} | ${r.http.requests} | ${r.http.errors} |`),
  ];
  return {
    name: 'history',
    rows: rows.map((r) => ({ ...r, seed })),
    pass: rows.every((r) => r.pass),
    table,
  };
}
