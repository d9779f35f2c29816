// Bulk activation and deactivation through createCaller: outcomes per row, history, idempotence, races.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, SimEvent, User } from '#server/db/entities.ts';
import type { Services } from '#server/services.ts';
import { callerFor, startServices } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';

let services: Services;
let stop: () => Promise<void>;
const newIccid = iccidFactory('8946077');

beforeAll(async () => {
  ({ services, stop } = await startServices());
  const em = services.orm.em.fork();
  const other = em.create(Company, { name: 'Konkurrent AB', customerNumber: 'K-1', invoiceNote: '' });
  em.create(User, { name: 'Bo Annan', email: 'bo@konkurrent.se', company: other });
  await em.flush();
});
afterAll(async () => stop?.());

const plan = { dataLimit: 5000, callAndSms: true, roaming: false, invoiceLineMark: ' Låda 7 ', invoiceLineNote: '' };
const activeCount = (iccids: string[]) =>
  services.orm.em.fork().count(Sim, { iccid: { $in: iccids }, status: 'active' });

describe('bulk activation', () => {
  it('activates the good rows, says why each other row is refused, and writes one event per SIM', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const bo = await callerFor(services, 'bo@konkurrent.se');
    const [a, b, mine, theirs] = [newIccid(), newIccid(), newIccid(), newIccid()];
    await anna.sim.activate({ ...plan, iccid: mine });
    await bo.sim.activate({ ...plan, iccid: theirs });
    const wrongCheck = a.slice(0, 19) + String((Number(a[19]) + 1) % 10);

    const r = await anna.sim.bulkActivate({
      ...plan,
      iccids: [a.replace(/(\d{5})/g, '$1 '), b, a, mine, theirs, a.slice(0, 19), wrongCheck, ''],
    });
    expect(r.results.map((x) => [x.iccid, x.outcome])).toEqual([
      [a, 'activated'],
      [b, 'activated'],
      [a, 'duplicateInList'],
      [mine, 'alreadyActive'],
      [theirs, 'activeElsewhere'],
      [a.slice(0, 19), 'invalid'],
      [wrongCheck, 'invalid'],
      ['', 'invalid'],
    ]);
    expect(r.results[5]!.message).toBe('ICCID ska vara exakt 20 siffror.');
    expect(r.results[6]!.message).toMatch(/kontrollsiffra/);
    expect(r.results[4]!.message).not.toMatch(/Konkurrent|Bo Annan|K-1/);
    expect(r.counts).toEqual({
      activated: 2,
      ready: 0,
      invalid: 3,
      duplicateInList: 1,
      alreadyActive: 1,
      activeElsewhere: 1,
    });
    for (const row of r.results.slice(0, 2)) {
      const sim = await anna.sim.byId({ id: row.simId! });
      expect(sim.iccid).toBe(row.iccid);
      expect(sim.ratePlan.code).toBe('DATA-5000-TS');
      expect(sim.invoiceLineMark).toBe('Låda 7');
      expect(sim.history).toHaveLength(1);
      expect(sim.history[0]).toMatchObject({
        kind: 'activated',
        by: 'Anna Andersson',
        before: null,
        after: { ratePlan: 'DATA-5000-TS', invoiceLineMark: 'Låda 7', invoiceLineNote: '' },
      });
    }
  });

  it("rows: a row's own mark and comment win over the list's, in the SIM and in its history event", async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const [a, b, c] = [newIccid(), newIccid(), newIccid()];
    const r = await anna.sim.bulkActivate({
      ...plan,
      invoiceLineNote: 'Listans kommentar',
      rows: [
        { iccid: a, invoiceLineMark: ' Rad ett ', invoiceLineNote: 'Egen kommentar' },
        { iccid: b },
        { iccid: c, invoiceLineMark: '' },
        { iccid: a, invoiceLineMark: 'Dubblett' },
      ],
    });
    expect(r.results.map((x) => x.outcome)).toEqual(['activated', 'activated', 'activated', 'duplicateInList']);
    const seen = await Promise.all(r.results.slice(0, 3).map((x) => anna.sim.byId({ id: x.simId! })));
    expect(seen.map((s) => [s.invoiceLineMark, s.invoiceLineNote])).toEqual([
      ['Rad ett', 'Egen kommentar'],
      ['Låda 7', 'Listans kommentar'],
      ['', 'Listans kommentar'],
    ]);
    expect(seen.map((s) => s.history[0]!.after)).toEqual([
      { ratePlan: 'DATA-5000-TS', invoiceLineMark: 'Rad ett', invoiceLineNote: 'Egen kommentar' },
      { ratePlan: 'DATA-5000-TS', invoiceLineMark: 'Låda 7', invoiceLineNote: 'Listans kommentar' },
      { ratePlan: 'DATA-5000-TS', invoiceLineMark: '', invoiceLineNote: 'Listans kommentar' },
    ]);
  });

  it('rows: a too long mark is refused naming the row, and nothing of the list is activated', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const [a, b] = [newIccid(), newIccid()];
    const call = anna.sim.bulkActivate({
      ...plan,
      rows: [{ iccid: a }, { iccid: b, invoiceLineNote: 'x'.repeat(201) }],
    });
    await expect(call).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call).rejects.toThrow(/Rad 2: fakturakommentaren får ha högst 200 tecken/);
    await expect(
      anna.sim.bulkActivate({ ...plan, rows: [{ iccid: a }, { iccid: b }, { iccid: '1'.repeat(101) }] }),
    ).rejects.toThrow(/Rad 3: ICCID ska vara exakt 20 siffror/);
    expect(await activeCount([a, b])).toBe(0);
    await expect(anna.sim.bulkActivate({ ...plan, iccids: [a], rows: [{ iccid: b }] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(anna.sim.bulkActivate({ ...plan })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await activeCount([a, b])).toBe(0);
  });

  it('dryRun answers the preview and changes nothing', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const [a, b] = [newIccid(), newIccid()];
    const events = await services.orm.em.fork().count(SimEvent, {});
    const r = await anna.sim.bulkActivate({ ...plan, iccids: [a, b, b], dryRun: true });
    expect(r.results.map((x) => x.outcome)).toEqual(['ready', 'ready', 'duplicateInList']);
    expect(r.results.every((x) => x.simId === undefined)).toBe(true);
    expect(await activeCount([a, b])).toBe(0);
    expect(await services.orm.em.fork().count(SimEvent, {})).toBe(events);
  });

  it('running the same list again activates only what is left', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const list = Array.from({ length: 30 }, () => newIccid());
    const first = await anna.sim.bulkActivate({ ...plan, iccids: list.slice(0, 20) });
    expect(first.counts.activated).toBe(20);
    const again = await anna.sim.bulkActivate({ ...plan, iccids: list });
    expect(again.counts).toMatchObject({ activated: 10, alreadyActive: 20 });
    expect(again.results.slice(20).every((x) => x.outcome === 'activated')).toBe(true);
    const third = await anna.sim.bulkActivate({ ...plan, iccids: list });
    expect(third.counts).toMatchObject({ activated: 0, alreadyActive: 30 });
    const em = services.orm.em.fork();
    expect(await em.count(Sim, { iccid: { $in: list } })).toBe(30);
    expect(await em.count(SimEvent, { sim: { iccid: { $in: list } }, kind: 'activated' })).toBe(30);
  });

  it('refuses the plan for the whole list as single activation does', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    await expect(anna.sim.bulkActivate({ ...plan, dataLimit: 7, iccids: [newIccid()] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('20 parallel bulk activations of overlapping lists: every ICCID active once, every result truthful', async () => {
    const pool = Array.from({ length: 60 }, () => newIccid());
    // Each list is a window of 32 over the pool, overlapping its neighbours, half of them by another company.
    // Every other list backwards: overlapping lists in opposite orders must not deadlock.
    const lists = Array.from({ length: 20 }, (_, i) => {
      const window = pool.slice(i * 1.5, i * 1.5 + 32);
      return i % 4 < 2 ? window : window.reverse();
    });
    const callers = await Promise.all(
      lists.map((_, i) => callerFor(services, i % 2 ? 'bo@konkurrent.se' : 'anna@demo.test')),
    );
    const answers = await Promise.all(lists.map((iccids, i) => callers[i]!.sim.bulkActivate({ ...plan, iccids })));

    const activated = answers.flatMap((a) => a.results.filter((r) => r.outcome === 'activated').map((r) => r.iccid));
    expect(new Set(activated).size).toBe(activated.length); // never twice
    const rows = await services.orm.em
      .fork()
      .find(Sim, { iccid: { $in: pool }, status: 'active' }, { populate: ['company'] });
    expect(rows).toHaveLength(pool.length); // every ICCID active exactly once (the unique index allows no more)
    expect(new Set(activated)).toEqual(new Set(rows.map((s) => s.iccid)));
    const owner = new Map(rows.map((s) => [s.iccid, s.company.name]));
    answers.forEach((a, i) => {
      const mine = i % 2 ? 'Konkurrent AB' : 'Demo AB';
      for (const r of a.results) {
        expect(r.outcome).not.toBe('ready');
        if (r.outcome === 'activated') expect(owner.get(r.iccid)).toBe(mine);
        if (r.outcome === 'alreadyActive') expect(owner.get(r.iccid)).toBe(mine);
        if (r.outcome === 'activeElsewhere') expect(owner.get(r.iccid)).not.toBe(mine);
      }
    });
    expect(await services.orm.em.fork().count(SimEvent, { sim: { iccid: { $in: pool } } })).toBe(pool.length);
  });
});

describe('bulk deactivation', () => {
  it('deactivates own SIMs with an event each; others notFound, legacy refused, inactive said so', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const bo = await callerFor(services, 'bo@konkurrent.se');
    const act = await anna.sim.bulkActivate({ ...plan, iccids: [newIccid(), newIccid(), newIccid()] });
    const [x, y, z] = act.results.map((r) => r.simId!);
    await anna.sim.deactivate({ id: z! });
    const theirs = (await bo.sim.bulkActivate({ ...plan, iccids: [newIccid()] })).results[0]!.simId!;
    const legacy = await services.orm.em
      .fork()
      .findOneOrFail(Sim, { ratePlan: { isLegacy: true }, status: 'active', company: { name: 'Demo AB' } });

    const r = await anna.sim.bulkDeactivate({ ids: [x!, theirs, legacy.id, z!, y!, 2_000_000_000, x!] });
    expect(r.results).toEqual([
      { id: x, outcome: 'deactivated' },
      { id: theirs, outcome: 'notFound' },
      { id: legacy.id, outcome: 'legacy' },
      { id: z, outcome: 'alreadyInactive' },
      { id: y, outcome: 'deactivated' },
      { id: 2_000_000_000, outcome: 'notFound' },
    ]);
    expect(r.counts).toEqual({ deactivated: 2, notFound: 2, legacy: 1, alreadyInactive: 1 });
    const em = services.orm.em.fork();
    expect(await em.count(Sim, { id: { $in: [x!, y!] }, status: 'deactivated' })).toBe(2);
    expect(await em.count(Sim, { id: [theirs, legacy.id], status: 'active' })).toBe(2);
    const events = await em.find(SimEvent, { sim: x!, kind: 'deactivated' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ before: { status: 'active' }, after: { status: 'deactivated' } });
    // Deactivated: gone from the company's list, as after a single deactivation.
    await expect(anna.sim.byId({ id: x! })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('10 parallel bulk deactivations of overlapping lists: each SIM deactivated once, with one event', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const act = await anna.sim.bulkActivate({ ...plan, iccids: Array.from({ length: 40 }, () => newIccid()) });
    const ids = act.results.map((r) => r.simId!);
    const lists = Array.from({ length: 10 }, (_, i) => {
      const window = ids.slice(i * 2, i * 2 + 22);
      return i % 2 ? window.reverse() : window;
    });
    const callers = await Promise.all(lists.map(() => callerFor(services, 'anna@demo.test')));
    const answers = await Promise.all(lists.map((l, i) => callers[i]!.sim.bulkDeactivate({ ids: l })));
    const done = answers.flatMap((a) => a.results.filter((r) => r.outcome === 'deactivated').map((r) => r.id));
    expect(done.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(answers.flatMap((a) => a.results).every((r) => ['deactivated', 'alreadyInactive'].includes(r.outcome))).toBe(
      true,
    );
    expect(await services.orm.em.fork().count(SimEvent, { sim: ids, kind: 'deactivated' })).toBe(ids.length);
  });
});
