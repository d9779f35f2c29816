// Demo data: a company, a super admin, a regular user, a rate plan catalog (demo-plans.ts) and a few SIMs with history.
// Idempotent: running it again changes nothing that exists.
import { defined } from '#domain/defined.ts';
import type { Em } from './orm.ts';
import { Company, RatePlan, Sim, SimEvent, User, type UserRole } from './entities.ts';
import { staffCompany } from '#server/companies/companies.ts';
import { upsertPlans } from '#server/plans/catalog.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { demoPlans } from './demo-plans.ts';

export type SeedResult = {
  companies: number;
  users: number;
  plans: { created: number; updated: number };
  sims: number;
};

export async function seedDemo(em: Em): Promise<SeedResult> {
  const plans = await upsertPlans(em, demoPlans);
  return em.transactional(async (tx) => {
    const result: SeedResult = { companies: 0, users: 0, plans, sims: 0 };
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
      const demo: Array<{
        n: string;
        mark: string;
        note: string;
        plan: string;
        from: Date;
        change?: [Date, string];
        off?: Date;
      }> = [
        {
          n: '894601234567890001',
          mark: 'Lager Göteborg',
          note: 'Handdator 1',
          plan: 'DATA-5000',
          from: new Date(Date.UTC(year - 1, 0, 15)),
        },
        {
          n: '894601234567890002',
          mark: 'Lager Göteborg',
          note: 'Handdator 2',
          plan: 'DATA-1000',
          from: new Date(Date.UTC(year - 1, 2, 1)),
          change: [new Date(Date.UTC(year - 1, 5, 10)), 'DATA-5000-TS'],
        },
        {
          n: '894601234567890003',
          mark: 'Servicebil ABC123',
          note: 'Router',
          plan: 'DATA-20000-R',
          from: new Date(Date.UTC(year - 1, 4, 20)),
        },
        {
          n: '894601234567890004',
          mark: 'Kontor Malmö',
          note: 'Larm',
          plan: 'OLD-2000',
          from: new Date(Date.UTC(year - 2, 8, 1)),
        },
        {
          n: '894601234567890005',
          mark: 'Butik Lund',
          note: 'Kassa',
          plan: 'DATA-500',
          from: new Date(Date.UTC(year - 1, 1, 1)),
          off: new Date(Date.UTC(year - 1, 9, 12)),
        },
      ];
      for (const d of demo) {
        const iccid = withCheckDigit(d.n + '0');
        const firstPlan = defined(byCode.get(d.plan), `the demo plan ${d.plan}`);
        const sim = tx.create(Sim, {
          iccid,
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
}

export async function databaseIsEmpty(em: Em): Promise<boolean> {
  return (await em.count(Company, {})) === 0 && (await em.count(User, {})) === 0;
}
