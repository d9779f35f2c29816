// A large fleet seeded with SQL (not through the API), for bench:data and the scale test on PostgreSQL: one company
// with `sims` active SIMs and `smallCompanies` companies of `simsPerSmall` SIMs each beside it, each SIM with its
// 'activated' event. ICCIDs are 20 digits, '8946' and 16 digits scrambled from the row number (a bijection, so
// they never repeat); marks are one of six words and a number 0-4999; every other SIM has the comment 'Avtal <year>'
// (a search that matches half the fleet), one in fifty 'Byt batteri <n>'; the plans rotate over the non-legacy ones.
import { RatePlan } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';

/** Multiplier of the ICCID scramble: odd and not a multiple of 5, so g -> g * M mod 10^16 is one-to-one. */
const SCRAMBLE = '3141592653589793';
export const MARK_WORDS = ['Lastbil', 'Mätare', 'Kassa', 'Larm', 'Skåp', 'Våg'];

/** The ICCID of row g (the same formula as the seeding SQL, for a benchmark that picks one). */
export function fleetIccid(g: number): string {
  return '8946' + ((BigInt(g) * BigInt(SCRAMBLE)) % 10n ** 16n).toString().padStart(16, '0');
}

/** Inserts rows first..first+count-1 (numbers only: they are written into the SQL); its one parameter: plan ids. */
const simsSql = (first: number, count: number, company: string, plans: number) => `
  insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
  select '8946' || lpad(((g::numeric * ${SCRAMBLE}) % 10000000000000000)::text, 16, '0'),
    ${company}, (?::int[])[1 + (g % ${plans})],
    (array['Lastbil','Mätare','Kassa','Larm','Skåp','Våg'])[1 + (g % 6)] || ' ' || (g % 5000),
    case when g % 2 = 0 then 'Avtal ' || (2020 + g % 6) when g % 50 = 1 then 'Byt batteri ' || (g % 97) else '' end,
    'active', now() - g * interval '7 seconds'
  from generate_series(${first}, ${first} + ${count} - 1) g`;

/**
 * Seeds the fleet. The sim table's indexes (but its keys) are dropped first and made again after the rows, from
 * their own definitions (as a restore would): much faster than keeping them up row by row.
 */
export async function seedFleet(
  em: Em,
  opts: { companyId: number; sims: number; smallCompanies: number; simsPerSmall: number; usersPerSmall?: number },
): Promise<void> {
  const indexes = await em.execute<{ indexname: string; indexdef: string }[]>(
    `select indexname, indexdef from pg_indexes
     where tablename = 'sim' and indexname not like '%pkey' and indexname not like '%unique'`,
  );
  for (const i of indexes) await em.execute(`drop index "${i.indexname}"`);
  const plans = await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
  const ids = `{${plans.map((p) => p.id).join(',')}}`;
  const n = (x: number) => Math.trunc(Number(x));
  // The big company: rows 1..sims.
  await em.execute(simsSql(1, n(opts.sims), String(n(opts.companyId)), plans.length), [ids]);
  if (opts.smallCompanies > 0) {
    await em.execute(
      `insert into company (name, customer_number, invoice_note, invoice_interval, created_at, updated_at)
       select 'Småbolag ' || c, 'SMA-' || c, '', 'monthly', now(), now() from generate_series(1, ?) c`,
      [opts.smallCompanies],
    );
    // Rows sims+1.. : company k of the small ones gets simsPerSmall consecutive rows.
    const [span] = await em.execute<{ lo: number; hi: number }[]>(
      `select min(id)::int as lo, max(id)::int as hi from company where customer_number like 'SMA-%'`,
    );
    // One insert gives the companies consecutive ids; each gets simsPerSmall consecutive rows.
    if (!span || span.hi - span.lo + 1 !== opts.smallCompanies) throw new Error('small companies: ids not consecutive');
    const first = n(opts.sims) + 1;
    const company = `${span.lo} + (g - ${first}) / ${n(opts.simsPerSmall)}`;
    await em.execute(simsSql(first, n(opts.smallCompanies * opts.simsPerSmall), company, plans.length), [ids]);
    // Users of the small companies (the admin's lists): the first of each an owner.
    const per = n(opts.usersPerSmall ?? 0);
    if (per > 0)
      await em.execute(
        `insert into app_user (name, email, company_id, role, is_super_admin, created_at)
         select 'Person ' || u, 'person' || u || '@smabolag' || (u / ${per}) || '.se', ${span.lo} + u / ${per},
           case when u % ${per} = 0 then 'owner' else 'member' end, false, now()
         from generate_series(0, ${n(opts.smallCompanies) * per - 1}) u`,
      );
  }
  await em.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, after)
     select id, 'activated', rate_plan_id, activated_at, jsonb_build_object('invoiceLineMark', invoice_line_mark) from sim`,
  );
  for (const i of indexes) await em.execute(i.indexdef);
  await em.execute('vacuum analyze');
}
