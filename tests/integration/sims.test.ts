// Long: the SIM procedures' rules share one database, its companies and callers.
// SIM procedures through createCaller: rules, company scoping, legacy refusal, history, concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim, SimEvent, User } from '#server/db/entities.ts';
import type { Services } from '#server/services.ts';
import { callerFor, startServices } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { bad, type ActivateInput, type EditInput } from '#tests/helpers/inputs.ts';

let services: Services;
let stop: () => Promise<void>;
const newIccid = iccidFactory('8946099');

beforeAll(async () => {
  ({ services, stop } = await startServices());
  const em = services.orm.em.fork();
  const other = em.create(Company, {
    name: 'Konkurrent AB',
    customerNumber: 'K-1',
    invoiceNote: '',
    invoiceInterval: 'monthly',
  });
  em.create(User, { name: 'Bo Annan', email: 'bo@konkurrent.se', company: other });
  await em.flush();
});
afterAll(async () => stop?.());

const activation = (iccid: string, extra: Partial<ActivateInput> = {}): ActivateInput => ({
  iccid,
  dataLimit: 5000,
  callAndSms: true,
  roaming: false,
  invoiceLineMark: ' Lager 1 ',
  invoiceLineNote: 'Handdator',
  ...extra,
});

describe('activate', () => {
  it('stores the SIM on the resolved plan with an activated event', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const iccid = newIccid();
    const r = await anna.sim.activate(activation(iccid.replace(/(\d{5})/g, '$1 ')));
    expect(r.success).toBe(true);
    const sim = await anna.sim.byId({ id: r.id });
    expect(sim.iccid).toBe(iccid);
    expect(sim.invoiceLineMark).toBe('Lager 1');
    expect(sim.ratePlan.code).toBe('DATA-5000-TS');
    expect(sim.history.map((h) => h.kind)).toEqual(['activated']);
    expect(sim.history[0]!.by).toBe('Anna Andersson');
  });

  it('refuses a bad ICCID with its own message for each problem', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const good = newIccid();
    const cases: Array<[string, string]> = [
      ['', 'Ange ICCID-numret.'],
      ['12345abc', 'ICCID får bara innehålla siffror.'],
      [good.slice(0, 19), 'ICCID ska vara exakt 20 siffror.'],
      [good.slice(0, 19) + String((Number(good[19]) + 1) % 10), 'kontrollsiffra'],
    ];
    for (const [iccid, message] of cases) {
      await expect(anna.sim.activate(activation(iccid))).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringContaining(message),
      });
    }
  });

  it('refuses marks over 200 characters and a plan combination that does not exist', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    await expect(anna.sim.activate(activation(newIccid(), { invoiceLineMark: 'x'.repeat(201) }))).rejects.toMatchObject(
      { code: 'BAD_REQUEST' },
    );
    await expect(anna.sim.activate(activation(newIccid(), { dataLimit: 500, callAndSms: true }))).rejects.toMatchObject(
      { code: 'BAD_REQUEST', message: expect.stringContaining('Tal & SMS') },
    );
    await expect(
      anna.sim.activate(activation(newIccid(), { dataLimit: 1000, callAndSms: false, roaming: true })),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      anna.sim.activate(activation(newIccid(), { dataLimit: 2000, callAndSms: false })),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' }); // legacy only
  });

  it('refuses an ICCID active in any company, but allows a deactivated one again', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const bo = await callerFor(services, 'bo@konkurrent.se');
    const iccid = newIccid();
    const first = await anna.sim.activate(activation(iccid));
    await expect(bo.sim.activate(activation(iccid))).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('redan ett aktivt'),
    });
    await anna.sim.deactivate({ id: first.id });
    const again = await bo.sim.activate(activation(iccid));
    expect(again.id).not.toBe(first.id);
  });

  it('gives exactly one active SIM for 20 parallel activations of the same ICCID', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const iccid = newIccid();
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => anna.sim.activate(activation(iccid))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'CONFLICT' });
    expect(await services.orm.em.fork().count(Sim, { iccid, status: 'active' })).toBe(1);
  });
});

describe('parallel edits', () => {
  it('leave a consistent history: each event starts where the one before ended', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const { id } = await anna.sim.activate(activation(newIccid()));
    const edits = Array.from({ length: 10 }, (_, i) => ({
      id,
      dataLimit: 5000,
      callAndSms: true,
      roaming: i % 2 === 0,
      invoiceLineMark: `Märkning ${i}`,
      invoiceLineNote: 'Handdator',
    }));
    // Each edit is its own request (its own context), as ten browser tabs would send them.
    const callers = await Promise.all(edits.map(() => callerFor(services, 'anna@demo.test')));
    const results = await Promise.allSettled(edits.map((e, i) => callers[i]!.sim.edit(e)));
    expect(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    const events = await services.orm.em
      .fork()
      .find(SimEvent, { sim: id }, { orderBy: { id: 'asc' }, populate: ['ratePlan'] });
    let mark = 'Lager 1';
    let plan = 'DATA-5000-TS';
    for (const e of events.slice(1)) {
      if (e.before && 'invoiceLineMark' in e.before) expect(e.before.invoiceLineMark).toBe(mark);
      if (e.before && 'ratePlan' in e.before) expect(e.before.ratePlan).toBe(plan);
      if (e.after && 'invoiceLineMark' in e.after) mark = e.after.invoiceLineMark as string;
      if (e.after && 'ratePlan' in e.after) plan = e.after.ratePlan as string;
      expect(e.ratePlan.code).toBe(plan);
    }
    const sim = await services.orm.em.fork().findOneOrFail(Sim, { id }, { populate: ['ratePlan'] });
    expect(sim.invoiceLineMark).toBe(mark);
    expect(sim.ratePlan.code).toBe(plan);
  });
});

describe('list and search', () => {
  it('lists only the company’s active SIMs and searches every shown field case-insensitively', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const bo = await callerFor(services, 'bo@konkurrent.se');
    await bo.sim.activate(activation(newIccid(), { invoiceLineMark: 'Hemlig kund' }));
    const mine = await anna.sim.list({});
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((s) => s.status === 'active')).toBe(true);
    expect(mine.some((s) => s.invoiceLineMark === 'Hemlig kund')).toBe(false);
    expect(await anna.sim.list({ q: 'hemlig' })).toHaveLength(0);
    expect((await anna.sim.list({ q: 'LAGER GÖTEBORG' })).length).toBeGreaterThanOrEqual(2);
    expect((await anna.sim.list({ q: 'handdator 1' })).map((s) => s.invoiceLineNote)).toContain('Handdator 1');
    expect((await anna.sim.list({ q: 'med roaming' })).every((s) => s.ratePlan.description.includes('roaming'))).toBe(
      true,
    );
    const first = mine[0]!;
    expect((await anna.sim.list({ q: first.iccid.slice(-8) })).map((s) => s.id)).toContain(first.id);
    expect(await anna.sim.list({ q: '%' })).toHaveLength(0);
    const page = await anna.sim.page({ limit: 2, offset: 0 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBe(mine.length);
  });
});

describe('edit and deactivate', () => {
  it('edits marks and plan, writing updated and planChanged events with before and after', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const { id } = await anna.sim.activate(activation(newIccid()));
    const base = {
      id,
      dataLimit: 5000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: 'Lager 1',
      invoiceLineNote: 'Handdator',
    };
    expect(await anna.sim.edit(base)).toEqual({ success: true, changed: false });
    await anna.sim.edit({ ...base, invoiceLineMark: 'Lager 2' });
    await anna.sim.edit({ ...base, invoiceLineMark: 'Lager 2', roaming: true });
    const sim = await anna.sim.byId({ id });
    expect(sim.ratePlan.code).toBe('DATA-5000-TSR');
    expect(sim.history.map((h) => h.kind)).toEqual(['planChanged', 'updated', 'activated']);
    expect(sim.history[0]!.before).toEqual({ ratePlan: 'DATA-5000-TS' });
    expect(sim.history[1]!.after).toEqual({ invoiceLineMark: 'Lager 2' });
    const events = await services.orm.em
      .fork()
      .find(SimEvent, { sim: id }, { populate: ['ratePlan'], orderBy: { id: 'asc' } });
    expect(events.at(-1)!.ratePlan.code).toBe('DATA-5000-TSR');
  });

  it('refuses an edit that leaves out a field (400 naming it), and changes nothing', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const { id } = await anna.sim.activate(activation(newIccid(), { invoiceLineNote: 'Behålls' }));
    const full = {
      id,
      dataLimit: 5000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: 'Lager 1',
      invoiceLineNote: 'Behålls',
    };
    for (const field of ['invoiceLineNote', 'invoiceLineMark', 'callAndSms', 'roaming', 'id'] as const) {
      const { [field]: _left, ...rest } = full;
      await expect(anna.sim.edit(bad<EditInput>(rest)), field).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        cause: { issues: [expect.objectContaining({ path: [field], message: `${field} saknas.` })] },
      });
    }
    const sim = await anna.sim.byId({ id });
    expect(sim.invoiceLineNote).toBe('Behålls');
    expect(sim.history).toHaveLength(1);
  });

  it('refuses edits and deactivation of a SIM on a legacy plan (409)', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const legacy = await services.orm.em
      .fork()
      .findOneOrFail(Sim, { ratePlan: { isLegacy: true }, status: 'active', company: { name: 'Demo AB' } });
    const detail = await anna.sim.byId({ id: legacy.id });
    expect(detail.ratePlan.isLegacy).toBe(true);
    await expect(
      anna.sim.edit({
        id: legacy.id,
        dataLimit: 500,
        callAndSms: false,
        roaming: false,
        invoiceLineMark: 'x',
        invoiceLineNote: '',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('Kontakta supporten') });
    await expect(anna.sim.deactivate({ id: legacy.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('answers NOT_FOUND for another company’s SIM through every procedure, and changes nothing', async () => {
    const bo = await callerFor(services, 'bo@konkurrent.se');
    const annas = await services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', company: { name: 'Demo AB' }, ratePlan: { isLegacy: false } });
    await expect(bo.sim.byId({ id: annas.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      bo.sim.edit({
        id: annas.id,
        dataLimit: 500,
        callAndSms: false,
        roaming: false,
        invoiceLineMark: 'hack',
        invoiceLineNote: '',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(bo.sim.deactivate({ id: annas.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const after = await services.orm.em.fork().findOneOrFail(Sim, { id: annas.id });
    expect(after.status).toBe('active');
    expect(after.invoiceLineMark).toBe(annas.invoiceLineMark);
  });

  it('a super admin acting as a company sees that company’s SIMs', async () => {
    const em = services.orm.em.fork();
    const konkurrent = await em.findOneOrFail(Company, { customerNumber: 'K-1' });
    const admin = await callerFor(services, 'admin@demo.test', konkurrent.id);
    const list = await admin.sim.list({});
    expect(list.some((s) => s.invoiceLineMark === 'Hemlig kund')).toBe(true);
  });

  it('deactivation sets status and date, writes an event, and removes the SIM from the list', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const { id } = await anna.sim.activate(activation(newIccid()));
    await anna.sim.deactivate({ id });
    const sim = await services.orm.em.fork().findOneOrFail(Sim, { id });
    expect(sim.status).toBe('deactivated');
    expect(sim.deactivatedAt).toBeInstanceOf(Date);
    expect(await services.orm.em.fork().count(SimEvent, { sim: id, kind: 'deactivated' })).toBe(1);
    expect((await anna.sim.list({})).some((s) => s.id === id)).toBe(false);
    await expect(anna.sim.byId({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists the selectable plans (never legacy) and refuses anonymous callers', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const plans = await anna.plans.list();
    expect(plans.length).toBe(await services.orm.em.fork().count(RatePlan, { isLegacy: false }));
    const anon = await callerFor(services, null);
    await expect(anon.plans.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(anon.sim.list({})).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
