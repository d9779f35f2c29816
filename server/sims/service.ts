// SIM business rules: activate, list and search, read with history, edit, deactivate.
// Every operation is scoped to one company and runs in one transaction.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import { Company, RatePlan, Sim, SimEvent, User } from '../db/entities.js';
import type { Em } from '../db/orm.js';
import { resolvePlan, selectionProblem } from '../plans/selector.js';
import type { ActivateInput, EditInput } from './schemas.js';

export type Actor = { companyId: number; userId: number };

export const LEGACY_MESSAGE = 'SIM-kortet har ett äldre abonnemang och kan inte ändras här. Kontakta supporten för att säga upp det.';
export const ALREADY_ACTIVE_MESSAGE = 'Det finns redan ett aktivt SIM-kort med det här ICCID-numret.';
export const NOT_FOUND_MESSAGE = 'SIM-kortet finns inte.';

/** A TRPCError for one field, in the shape the forms and the API error show. */
export function fieldError(code: 'BAD_REQUEST' | 'CONFLICT', field: string, message: string): TRPCError {
  return new TRPCError({ code, message, cause: Object.assign(new Error(message), { field }) });
}

export async function selectablePlans(em: Em): Promise<RatePlan[]> {
  return em.find(RatePlan, { isLegacy: false }, { orderBy: { dataLimit: 'asc', code: 'asc' } });
}

async function planFor(em: Em, choice: { dataLimit: number; callAndSms: boolean; roaming: boolean }): Promise<RatePlan> {
  const plans = await selectablePlans(em);
  const problem = selectionProblem(plans, choice);
  if (problem) throw fieldError('BAD_REQUEST', problem.field, problem.message);
  return resolvePlan(plans, choice)!;
}

export async function activateSim(em: Em, actor: Actor, input: ActivateInput): Promise<Sim> {
  try {
    return await em.transactional(async (tx) => {
      const plan = await planFor(tx, input);
      if (await tx.count(Sim, { iccid: input.iccid, status: 'active' })) throw fieldError('CONFLICT', 'iccid', ALREADY_ACTIVE_MESSAGE);
      const by = tx.getReference(User, actor.userId);
      const now = new Date();
      const sim = tx.create(Sim, {
        iccid: input.iccid,
        company: tx.getReference(Company, actor.companyId),
        ratePlan: plan,
        invoiceLineMark: input.invoiceLineMark,
        invoiceLineNote: input.invoiceLineNote,
        status: 'active',
        activatedAt: now,
        activatedBy: by,
      });
      tx.create(SimEvent, {
        sim, kind: 'activated', ratePlan: plan, by, at: now, before: null,
        after: { ratePlan: plan.code, invoiceLineMark: input.invoiceLineMark, invoiceLineNote: input.invoiceLineNote },
      });
      await tx.flush();
      return sim;
    });
  } catch (e) {
    // Two activations of one ICCID at once: the partial unique index lets exactly one through.
    if (e instanceof UniqueConstraintViolationException) throw fieldError('CONFLICT', 'iccid', ALREADY_ACTIVE_MESSAGE);
    throw e;
  }
}

export async function listSims(em: Em, companyId: number, opts: { q?: string; limit?: number; offset?: number }) {
  const q = opts.q?.trim();
  const where: Record<string, unknown> = { company: companyId, status: 'active' };
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    where.$or = [{ iccid: { $ilike: like } }, { invoiceLineMark: { $ilike: like } }, { invoiceLineNote: { $ilike: like } }, { ratePlan: { description: { $ilike: like } } }];
  }
  const [items, total] = await em.findAndCount(Sim, where, {
    populate: ['ratePlan'],
    orderBy: { activatedAt: 'desc', id: 'desc' },
    limit: opts.limit,
    offset: opts.offset,
  });
  return { items, total };
}

async function ownActiveSim(em: Em, companyId: number, id: number, lock = false): Promise<Sim> {
  // The row lock is taken on the SIM alone: FOR UPDATE over a join with rate_plan makes PostgreSQL
  // lose the row when a concurrent edit changed its plan while we waited.
  const sim = lock
    ? await em.findOne(Sim, { id, company: companyId, status: 'active' }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    : await em.findOne(Sim, { id, company: companyId, status: 'active' }, { populate: ['ratePlan'] });
  if (!sim) throw new TRPCError({ code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE });
  if (lock) await em.populate(sim, ['ratePlan']);
  return sim;
}

export async function getSim(em: Em, companyId: number, id: number) {
  const sim = await ownActiveSim(em, companyId, id);
  const events = await em.find(SimEvent, { sim }, { populate: ['by'], orderBy: { at: 'desc', id: 'desc' } });
  return { sim, events };
}

export async function editSim(em: Em, actor: Actor, input: EditInput): Promise<{ changed: boolean }> {
  return em.transactional(async (tx) => {
    const sim = await ownActiveSim(tx, actor.companyId, input.id, true);
    if (sim.ratePlan.isLegacy) throw new TRPCError({ code: 'CONFLICT', message: LEGACY_MESSAGE });
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
      sim, kind: 'ratePlan' in after ? 'planChanged' : 'updated', ratePlan: plan,
      by: tx.getReference(User, actor.userId), at: new Date(), before, after,
    });
    await tx.flush();
    return { changed: true };
  });
}

export async function deactivateSim(em: Em, actor: Actor, id: number): Promise<Sim> {
  return em.transactional(async (tx) => {
    const sim = await ownActiveSim(tx, actor.companyId, id, true);
    if (sim.ratePlan.isLegacy) throw new TRPCError({ code: 'CONFLICT', message: LEGACY_MESSAGE });
    const now = new Date();
    sim.status = 'deactivated';
    sim.deactivatedAt = now;
    tx.create(SimEvent, {
      sim, kind: 'deactivated', ratePlan: sim.ratePlan, by: tx.getReference(User, actor.userId), at: now,
      before: { status: 'active' }, after: { status: 'deactivated' },
    });
    await tx.flush();
    return sim;
  });
}
