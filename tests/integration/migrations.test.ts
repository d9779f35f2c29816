import { describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, User } from '#server/db/entities.ts';
import { migrate } from '#server/db/orm.ts';
import { databaseIsEmpty, seedDemo } from '#server/db/seed.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const db = useFreshOrm();

describe('migrations', () => {
  it('run on an empty database and leave no difference to the entities', async () => {
    const applied = await migrate(db.orm);
    expect(applied.length).toBeGreaterThan(0);
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');
    // Running again applies nothing.
    expect(await migrate(db.orm)).toEqual([]);
  });

  it('allow one active SIM per ICCID, but a deactivated one may repeat', async () => {
    const em = db.orm.em.fork();
    await seedDemo(em);
    const sim = await em.findOneOrFail(Sim, { status: 'active' }, { populate: ['company', 'ratePlan'] });
    const copy = { iccid: sim.iccid, company: sim.company, ratePlan: sim.ratePlan, status: 'active' as const };
    em.create(Sim, copy);
    await expect(em.flush()).rejects.toThrow();
    em.clear();
    const em2 = db.orm.em.fork();
    const again = await em2.findOneOrFail(Sim, { id: sim.id });
    em2.create(Sim, { iccid: again.iccid, company: again.company, ratePlan: again.ratePlan, status: 'deactivated' });
    await em2.flush();
    expect(await em2.count(Sim, { iccid: sim.iccid })).toBe(2);
  });

  it('seed is idempotent and creates the demo data', async () => {
    const em = db.orm.em.fork();
    expect(await databaseIsEmpty(em)).toBe(false);
    const second = await seedDemo(db.orm.em.fork());
    expect(second.companies).toBe(0);
    expect(second.users).toBe(0);
    expect(second.sims).toBe(0);
    expect(second.plans.created).toBe(0);
    expect(await em.count(Company, { name: 'Demo AB' })).toBe(1);
    const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
    expect(admin.isSuperAdmin).toBe(true);
    const anna = await em.findOneOrFail(User, { email: 'anna@demo.test' });
    expect(anna.isSuperAdmin).toBe(false);
    const plans = await em.find(RatePlan, {});
    expect(plans.length).toBeGreaterThanOrEqual(8);
    expect(plans.filter((p) => p.isLegacy)).toHaveLength(2);
    expect(Math.min(...plans.map((p) => p.dataLimit))).toBe(500);
    expect(Math.max(...plans.map((p) => p.dataLimit))).toBe(50000);
  });
});
