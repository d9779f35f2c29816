// A long list activated in chunks by the browser (/add/bulk with JS): the chunks send no toast,
// and the run's one summary toast counts what the database says this user activated, never the claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { newToast, type HubEvent } from '#server/events/hub.ts';
import type { Services } from '#server/services.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import { callerFor, startServices } from '#tests/helpers/caller.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';

let services: Services;
let stop: () => Promise<void>;
const events: HubEvent[] = [];
let unsubscribe: () => void;
const newIccid = iccidFactory('8946078');
const plan = { dataLimit: 5000, callAndSms: true, roaming: false, invoiceLineMark: '', invoiceLineNote: '' };

beforeAll(async () => {
  ({ services, stop } = await startServices());
  unsubscribe = services.hub.subscribe((e) => events.push(e));
  const em = services.orm.em.fork();
  const other = em.create(Company, { name: 'Konkurrent AB', customerNumber: 'K-2', invoiceNote: '' });
  em.create(User, { name: 'Bo Annan', email: 'bo@konkurrent2.se', company: other });
  await em.flush();
});
afterAll(async () => {
  unsubscribe?.();
  await stop?.();
});

/** Anna's toasts: another user's toast may arrive late (NOTIFY is asynchronous) and is not hers. */
let annaId = 0;
const toasts = () => events.flatMap((e) => (e.kind === 'toast' && e.userId === annaId ? [e.toast] : []));

/** The toasts published until a marker sent now arrives (events arrive in order). */
async function publishedSoFar(userId: number) {
  const marker = newToast('info', `marker-${Math.random()}`, '');
  await services.hub.publish({ kind: 'toast', userId, toast: marker });
  await expect.poll(() => toasts().some((x) => x.title === marker.title), { timeout: 10_000 }).toBe(true);
  const seen = toasts().filter((x) => x.title !== marker.title);
  events.length = 0;
  return seen.map((x) => [x.title, x.message]);
}

describe('chunked bulk activation', () => {
  it('sends no toast per chunk and one truthful toast for the run', async () => {
    const anna = await callerFor(services, 'anna@demo.test');
    const bo = await callerFor(services, 'bo@konkurrent2.se');
    annaId = (await services.orm.em.fork().findOneOrFail(User, { email: 'anna@demo.test' })).id;
    const list = Array.from({ length: 5 }, () => newIccid());
    const theirs = newIccid();
    await bo.sim.activate({ ...plan, iccid: theirs });
    events.length = 0;

    const first = await anna.sim.bulkActivateChunk({ ...plan, iccids: list.slice(0, 3) });
    const second = await anna.sim.bulkActivateChunk({ ...plan, iccids: [...list.slice(3), theirs] });
    expect(first.counts.activated).toBe(3);
    expect(second.counts).toMatchObject({ activated: 2, activeElsewhere: 1 });
    expect(await publishedSoFar(annaId)).toEqual([]);
    expect(await services.orm.em.fork().count(Sim, { iccid: { $in: list }, status: 'active' })).toBe(5);

    const ids = [...first.results, ...second.results].flatMap((r) => (r.simId ? [r.simId] : []));
    const bosSim = await services.orm.em.fork().findOneOrFail(Sim, { iccid: theirs });
    // Claims of another company's SIM or of ids that do not exist are not counted.
    const summary = await anna.sim.bulkActivateSummary({ simIds: [...ids, bosSim.id, 2_000_000_000], total: 6 });
    expect(summary).toEqual({ activated: 5 });
    expect(await publishedSoFar(annaId)).toEqual([[tBulk.activatedTitle(5), tBulk.summary(5, 1)]]);

    // A run where nothing was activated still gets its one (error) toast; bad input is refused.
    expect(await anna.sim.bulkActivateSummary({ simIds: [], total: 2 })).toEqual({ activated: 0 });
    await expect.poll(() => toasts().map((x) => x.type), { timeout: 10_000 }).toEqual(['error']);
    await expect(anna.sim.bulkActivateSummary({ simIds: [], total: 0 })).rejects.toThrow();
    await expect(anna.sim.bulkActivateSummary({ simIds: Array(10_001).fill(1), total: 1 })).rejects.toThrow();
  });

  it('refuses an anonymous caller', async () => {
    const anon = await callerFor(services, null);
    await expect(anon.sim.bulkActivateChunk({ ...plan, iccids: [newIccid()] })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(anon.sim.bulkActivateSummary({ simIds: [1], total: 1 })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('has no REST path: the REST contract stays the same', async () => {
    const { generateOpenApiDocument } = await import('trpc-to-openapi');
    const { appRouter } = await import('#server/trpc/router.ts');
    const doc = generateOpenApiDocument(appRouter, { title: 't', version: '1', baseUrl: 'http://x/api' });
    // The chunk and its summary are the screens' own steps: the bulk paths are the public ones only.
    expect(
      Object.keys(doc.paths ?? {})
        .filter((p) => p.startsWith('/sim/bulk'))
        .sort(),
    ).toEqual(['/sim/bulk', '/sim/bulk/deactivate', '/sim/bulk/pause', '/sim/bulk/resume']);
    expect(Object.keys(doc.paths ?? {}).join(' ')).not.toMatch(/chunk|summary/i);
  });
});
