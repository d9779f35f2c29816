// Deactivating one SIM (not on a legacy plan), with its history event, trail row and webhook event.
import { t } from '#domain/texts/common.ts';
import { Sim, SimEvent } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Conflict } from '#domain/errors.ts';
import { enqueueEvent } from '#server/webhooks/outbox.ts';
import { auditSim, eventBy, lockOwnActiveSim, type Actor } from './changes.ts';
import { tagsOfSim } from './tags.ts';

export async function deactivateSim(em: Em, actor: Actor, id: number): Promise<Sim> {
  return em.transactional(async (tx) => {
    const sim = await lockOwnActiveSim(tx, actor.companyId, id);
    if (sim.ratePlan.isLegacy) throw new Conflict(t.errors.simLegacy);
    const now = new Date();
    sim.status = 'deactivated';
    sim.deactivatedAt = now;
    tx.create(SimEvent, {
      sim,
      kind: 'deactivated',
      ratePlan: sim.ratePlan,
      ...eventBy(tx, actor),
      at: now,
      before: { status: 'active' },
      after: { status: 'deactivated' },
    });
    auditSim(tx, actor, 'simDeactivated', sim, { status: 'active' }, { status: 'deactivated' });
    await tx.flush();
    await enqueueEvent(tx, actor.companyId, 'sim.deactivated', {
      sim: {
        id: sim.id,
        iccid: sim.iccid,
        deactivatedAt: now.toISOString(),
        tags: await tagsOfSim(tx, actor.companyId, sim.id),
      },
    });
    return sim;
  });
}
