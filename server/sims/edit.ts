// Editing one SIM: its marks and its plan (not on a legacy plan), recorded only when something changed.
import { t } from '#domain/texts/common.ts';
import { SimEvent } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Conflict } from '#domain/errors.ts';
import { enqueueEvent } from '#server/webhooks/outbox.ts';
import type { EditInput } from '#domain/sims/schemas.ts';
import { auditSim, eventBy, lockOwnActiveSim, planFor, type Actor } from './changes.ts';
import { tagsOfSim } from './tags.ts';

export async function editSim(em: Em, actor: Actor, input: EditInput): Promise<{ changed: boolean }> {
  return em.transactional(async (tx) => {
    const sim = await lockOwnActiveSim(tx, actor.companyId, input.id);
    if (sim.ratePlan.isLegacy) throw new Conflict(t.errors.simLegacy);
    const plan = await planFor(tx, input);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (plan.id !== sim.ratePlan.id) {
      before.ratePlan = sim.ratePlan.code;
      after.ratePlan = plan.code;
    }
    for (const key of ['invoiceLineMark', 'invoiceLineNote'] as const) {
      if (sim[key] !== input[key]) {
        before[key] = sim[key];
        after[key] = input[key];
      }
    }
    if (Object.keys(after).length === 0) return { changed: false };
    sim.ratePlan = plan;
    sim.invoiceLineMark = input.invoiceLineMark;
    sim.invoiceLineNote = input.invoiceLineNote;
    tx.create(SimEvent, {
      sim,
      kind: 'ratePlan' in after ? 'planChanged' : 'updated',
      ratePlan: plan,
      ...eventBy(tx, actor),
      at: new Date(),
      before,
      after,
    });
    auditSim(tx, actor, 'simUpdated', sim, before, after);
    await tx.flush();
    await enqueueEvent(tx, actor.companyId, 'sim.updated', {
      sim: { id: sim.id, iccid: sim.iccid, tags: await tagsOfSim(tx, actor.companyId, sim.id) },
      before,
      after,
    });
    return { changed: true };
  });
}
