// The fleet of bench:data with usage beside it, on a PostgreSQL database of one's own (decision 035's plans were
// read on it): 1,000,000 active SIMs in Demo AB (bench/fleet.ts), no companies beside it, and for each SIM this
// month's and last month's totals and its last sighting, as a live fleet has them: one in twenty never seen, one
// in a hundred silent for 1-7 days, one in a hundred for longer, the rest seen within the last hour; this month's
// bytes spread over 0-300 MB, one in 37 up to 3 GB (some over 80 % of their plan); one in ten tagged.
//
//   FLEET_DB_URL=postgres://postgres@127.0.0.1:5432/fleet_usage  FLEET_SIMS=1000000  npx tsx bench/fleet-usage-seed.ts
import { Company } from '#server/db/entities.ts';
import { initOrm, migrate } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { ensurePartitions, partitionOf } from '#server/usage/partitions.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import { seedFleet } from './fleet.ts';

const url = process.env.FLEET_DB_URL;
if (!url) throw new Error('FLEET_DB_URL is needed');
const SIMS = Number(process.env.FLEET_SIMS ?? 1_000_000);

const orm = await initOrm({ kind: 'postgres', url, prepare: false });
await migrate(orm);
await seedDemo(orm.em.fork());
const em = orm.em.fork();
const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
const t0 = performance.now();
await seedFleet(em, { companyId: demo.id, sims: SIMS, smallCompanies: 0, simsPerSmall: 100 });
console.log(`fleet seeded in ${Math.round(performance.now() - t0)} ms`);
const month = monthStart(swedishDay(new Date()));
const last = monthStart(swedishDay(new Date(Date.parse(`${month}T12:00:00Z`) - 5 * 86_400_000)));
await ensurePartitions(em, [partitionOf('usage_month', month), partitionOf('usage_month', last)]);
// The demo's own usage of its first SIMs (seedDemo) gives way to the fleet's.
await em.execute('delete from usage_month where company_id = ?', [demo.id]);
await em.execute('delete from usage_last_seen where company_id = ?', [demo.id]);
const bytes = (g: string) =>
  `(case when ${g} % 37 = 0 then (${g}::bigint * 2654435761 % 3000) * 1000000 else (${g}::bigint * 2654435761 % 300) * 1000000 + ${g} % 1000 end)`;
for (const [m, factor] of [
  [month, 1],
  [last, 2],
] as const) {
  await em.execute(
    `insert into usage_month (company_id, sim_id, month, bytes_up, bytes_down, records)
     select s.company_id, s.id, ?::date, ${bytes('s.id')} * ${factor} / 5, ${bytes('s.id')} * ${factor} * 4 / 5, 96
     from sim s where s.company_id = ? and s.id % 20 <> 0`,
    [m, demo.id],
  );
}
await em.execute(
  `insert into usage_last_seen (company_id, sim_id, at, network, country)
   select s.company_id, s.id, now() - case when s.id % 100 = 1 then interval '1 day' + (s.id % 6) * interval '1 day'
     when s.id % 100 = 2 then interval '8 days' + (s.id % 20) * interval '1 day'
     else (s.id % 3600) * interval '1 second' end,
     (array['24001','24007','24008','23801'])[1 + s.id % 4], (array['SE','SE','SE','DK'])[1 + s.id % 4]
   from sim s where s.company_id = ? and s.id % 20 <> 0`,
  [demo.id],
);
// Tags as a fleet has them (issue 40): one SIM in ten "lager", one in fifty "väst" too.
await em.execute(
  `insert into sim_tag (company_id, sim_id, tag)
   select s.company_id, s.id, t.tag from sim s
     cross join (values ('lager', 10), ('väst', 50)) t(tag, every)
    where s.company_id = ? and s.id % t.every = 0
   on conflict do nothing`,
  [demo.id],
);
await em.execute('vacuum analyze');
console.log(`usage seeded in ${Math.round(performance.now() - t0)} ms (company ${demo.id})`);
await orm.close(true);
