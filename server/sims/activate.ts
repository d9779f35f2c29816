// Activating one SIM: on the plan the choice selects, with its tags, history event, trail row and webhook event in
// the same transaction.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { t } from '#domain/texts/common.ts';
import { Company, Sim, SimEvent } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Conflict } from '#domain/errors.ts';
import { enqueueEvent } from '#server/webhooks/outbox.ts';
import type { ActivateInput } from '#domain/sims/schemas.ts';
import { auditSim, eventBy, planFor, type Actor } from './changes.ts';
import { addTagsToNewSim, byText } from './tags.ts';

export async function activateSim(em: Em, actor: Actor, input: ActivateInput): Promise<Sim> {
  try {
    return await em.transactional(async (tx) => {
      const plan = await planFor(tx, input);
      if (await tx.count(Sim, { iccid: input.iccid, status: 'active' }))
        throw new Conflict(t.errors.simAlreadyActive, 'iccid');
      const who = eventBy(tx, actor);
      const now = new Date();
      const sim = tx.create(Sim, {
        iccid: input.iccid,
        company: tx.getReference(Company, actor.companyId),
        ratePlan: plan,
        invoiceLineMark: input.invoiceLineMark,
        invoiceLineNote: input.invoiceLineNote,
        status: 'active',
        activatedAt: now,
        activatedBy: who.by,
      });
      tx.create(SimEvent, {
        sim,
        kind: 'activated',
        ratePlan: plan,
        ...who,
        at: now,
        before: null,
        after: { ratePlan: plan.code, invoiceLineMark: input.invoiceLineMark, invoiceLineNote: input.invoiceLineNote },
      });
      await tx.flush();
      auditSim(tx, actor, 'simActivated', sim, null, {
        ratePlan: plan.code,
        invoiceLineMark: input.invoiceLineMark,
        invoiceLineNote: input.invoiceLineNote,
      });
      await tx.flush();
      const tags = [...input.tags].sort(byText);
      if (tags.length > 0) await addTagsToNewSim(tx, actor.companyId, sim.id, tags);
      await enqueueEvent(tx, actor.companyId, 'sim.activated', {
        sim: {
          id: sim.id,
          iccid: sim.iccid,
          activatedAt: now.toISOString(),
          ratePlan: plan.code,
          invoiceLineMark: input.invoiceLineMark,
          invoiceLineNote: input.invoiceLineNote,
          tags,
        },
      });
      return sim;
    });
  } catch (e) {
    // Two activations of one ICCID at once: the partial unique index lets exactly one through.
    if (e instanceof UniqueConstraintViolationException) throw new Conflict(t.errors.simAlreadyActive, 'iccid');
    throw e;
  }
}
