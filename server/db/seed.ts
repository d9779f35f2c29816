// Demo data: a company, a super admin, a regular user, a rate plan catalog (demo-plans.ts), a few SIMs with history
// (demo-sims.ts) and their last 90 days of usage (server/usage/demo.ts).
// Idempotent: running it again changes nothing that exists.
import { defined } from '#domain/defined.ts';
import type { Em } from './orm.ts';
import { Company, RatePlan, Sim, SimEvent, User, type UserRole } from './entities.ts';
import { staffCompany } from '#server/companies/companies.ts';
import { upsertPlans } from '#server/plans/catalog.ts';
import { demoPlans } from './demo-plans.ts';
import { demoSims } from './demo-sims.ts';
import { seedDemoNetworkKey, seedDemoUsage } from '#server/usage/demo.ts';

export type SeedResult = {
  companies: number;
  users: number;
  plans: { created: number; updated: number };
  sims: number;
  /** Usage records seeded for the demo SIMs (90 days, server/usage/demo.ts); 0 when the SIMs existed. */
  usageRecords: number;
  /** Where the demo's network key was written for `usage:simulate` (only with `networkKeyDir`). */
  networkKeyFile?: string;
};

/**
 * `now`: the clock of the usage (tests); `networkKeyDir`: the data directory where a network key named "demo" is
 * written for `usage:simulate` (the server's first start passes its DATA_DIR).
 */
export async function seedDemo(em: Em, opts: { now?: Date; networkKeyDir?: string } = {}): Promise<SeedResult> {
  const plans = await upsertPlans(em, demoPlans);
  const result = await em.transactional(async (tx) => {
    const result: SeedResult = { companies: 0, users: 0, plans, sims: 0, usageRecords: 0 };
    let company = await tx.findOne(Company, { customerNumber: '100001' });
    if (!company) {
      company = tx.create(Company, {
        name: 'Demo AB',
        customerNumber: '100001',
        invoiceNote: 'Demo AB, ref. Inköp',
        invoiceInterval: 'monthly',
      });
      result.companies++;
    }
    // The super admin belongs to the staff company, never to a customer's (docs/decisions/014); Demo AB has an
    // owner of its own.
    if (!(await tx.findOne(Company, { isStaff: true }))) result.companies++;
    const staff = await staffCompany(tx);
    const users: Array<[string, string, Company, boolean, UserRole]> = [
      ['admin@demo.test', 'Admin Demo', staff, true, 'member'],
      ['ella@demo.test', 'Ella Ägare', company, false, 'owner'],
      ['anna@demo.test', 'Anna Andersson', company, false, 'member'],
    ];
    const created: Record<string, User> = {};
    for (const [email, name, home, isSuperAdmin, role] of users) {
      let user = await tx.findOne(User, { email });
      if (!user) {
        user = tx.create(User, { email, name, company: home, isSuperAdmin, role });
        result.users++;
      }
      created[email] = user;
    }
    await tx.flush();
    const simCount = await tx.count(Sim, { company });
    if (simCount === 0) {
      const byCode = new Map((await tx.find(RatePlan, {})).map((p) => [p.code, p]));
      const anna = defined(created['anna@demo.test'], 'the demo user anna@demo.test');
      const year = new Date().getUTCFullYear();
      const at = ([back, month, day]: [number, number, number]) => new Date(Date.UTC(year - back, month, day));
      const demo = demoSims.map((d) => ({
        ...d,
        from: at(d.from),
        change: d.change ? ([at(d.change.at), d.change.plan] as const) : undefined,
        off: d.off ? at(d.off) : undefined,
      }));
      for (const d of demo) {
        const firstPlan = defined(byCode.get(d.plan), `the demo plan ${d.plan}`);
        const sim = tx.create(Sim, {
          iccid: d.iccid,
          company,
          ratePlan: firstPlan,
          invoiceLineMark: d.mark,
          invoiceLineNote: d.note,
          status: 'active',
          activatedAt: d.from,
          activatedBy: anna,
        });
        tx.create(SimEvent, {
          sim,
          kind: 'activated',
          ratePlan: firstPlan,
          by: anna,
          at: d.from,
          before: null,
          after: { ratePlan: d.plan, invoiceLineMark: d.mark, invoiceLineNote: d.note },
        });
        if (d.change) {
          const next = defined(byCode.get(d.change[1]), `the demo plan ${d.change[1]}`);
          sim.ratePlan = next;
          tx.create(SimEvent, {
            sim,
            kind: 'planChanged',
            ratePlan: next,
            by: anna,
            at: d.change[0],
            before: { ratePlan: d.plan },
            after: { ratePlan: d.change[1] },
          });
        }
        if (d.off) {
          sim.status = 'deactivated';
          sim.deactivatedAt = d.off;
          tx.create(SimEvent, {
            sim,
            kind: 'deactivated',
            ratePlan: sim.ratePlan,
            by: anna,
            at: d.off,
            before: { status: 'active' },
            after: { status: 'deactivated' },
          });
        }
        result.sims++;
      }
      await tx.flush();
    }
    return result;
  });
  // The usage goes in through the one path, after the SIMs are committed (ingestUsage makes its partitions
  // outside any transaction); only with the SIMs it belongs to, so a second run changes nothing.
  if (result.sims > 0) result.usageRecords = (await seedDemoUsage(em, opts.now)).taken;
  if (result.sims > 0 && opts.networkKeyDir)
    result.networkKeyFile = await seedDemoNetworkKey(em.fork(), opts.networkKeyDir);
  return result;
}

export async function databaseIsEmpty(em: Em): Promise<boolean> {
  return (await em.count(Company, {})) === 0 && (await em.count(User, {})) === 0;
}
