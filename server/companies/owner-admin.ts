// The owner's own admin: the users of one company, listed, added, edited and removed by its owner
// (or support acting as the company). The same rules as the super admin's (server/users): e-mail unique
// across the portal, stored lower-case; plus the last-owner rule: a change never leaves a company that has an
// owner without one. Each change runs in one transaction with its row in the company's trail.
//
// Out of an owner's reach (docs/decisions/014): super admins (they live in the staff company, and a super admin
// row is skipped here even if one were in the company), and whether an address belongs to a user of another
// company: such an address is kept as the user's requestedEmail, the row itself gets a placeholder address that
// no login link reaches, and the owner gets the same answer as for a free address.
import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { z } from 'zod';
import { tCompany } from '#domain/texts/company.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { likePattern } from './like.ts';
import { Company, Session, User, type UserRole } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Conflict, NotFound } from '#domain/errors.ts';
import { normalizeEmail } from './email.ts';
import type { UserView } from '#domain/companies/user-schemas.ts';
import { translatingConflicts, userSnapshot, userView } from './users.ts';
import { t } from '#domain/texts/common.ts';
import type { companyUserCreateInput, companyUserUpdateInput } from '#domain/companies/owner-schemas.ts';

export type CompanyActor = Actor & { companyId: number };

const audit = (
  tx: Em,
  actor: CompanyActor,
  action: string,
  userId: number,
  before: UserView | null,
  after: UserView | null,
) =>
  recordAudit(tx, actor, {
    action,
    kind: 'user',
    companyId: actor.companyId,
    targetType: 'User',
    targetId: userId,
    before: before && userSnapshot(before),
    after: after && userSnapshot(after),
  });

/** The company's users (not the removed), by name; q searches name and e-mail. */
export async function listCompanyUsers(
  em: Em,
  companyId: number,
  opts: { q?: string; limit?: number; offset?: number } = {},
): Promise<UserView[]> {
  const q = opts.q?.trim();
  const where = q
    ? {
        ...reachable(companyId),
        $or: [
          { name: { $ilike: likePattern(q) } },
          { email: { $ilike: likePattern(q) } },
          { requestedEmail: { $ilike: likePattern(q) } },
        ],
      }
    : reachable(companyId);
  const rows = await em.find(User, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: opts.limit,
    offset: opts.offset ?? 0,
  });
  return rows.map(userView);
}

/** The users an owner may see and change: the company's own, not removed, never a super admin. */
const reachable = (companyId: number) => ({ company: companyId, removedAt: null, isSuperAdmin: false });

/**
 * Where a user of this company gets the address `email`: the address itself when no one has it; a placeholder
 * (with the address kept as requestedEmail) when a user outside the company has it, so the owner learns nothing
 * of other companies. The company's own users are the owner's to see: taking one of their addresses is refused.
 */
async function addressFor(
  tx: Em,
  companyId: number,
  email: string,
  exceptId?: number,
): Promise<{ email: string; requestedEmail: string | null }> {
  const other = await tx.findOne(User, { email });
  if (!other || other.id === exceptId) return { email, requestedEmail: null };
  if (other.company.id === companyId && !other.isSuperAdmin) throw new Conflict(t.errors.emailTaken, 'email');
  return { email: `pending-${randomUUID()}@pending.invalid`, requestedEmail: email };
}

/**
 * Two owners giving the same free address at once: the loser's work runs again and finds the address taken, so
 * the race tells no more than the lookup. A second collision in a row is answered as a taken address.
 */
async function retryingOnTakenAddress<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof UniqueConstraintViolationException)) throw e;
  }
  return translatingConflicts(work);
}

export async function getCompanyUser(em: Em, companyId: number, id: number): Promise<UserView> {
  const user = await em.findOne(User, { id, ...reachable(companyId) });
  if (!user) throw new NotFound(tCompany.errors.userNotFound);
  return userView(user);
}

export async function createCompanyUser(
  em: Em,
  actor: CompanyActor,
  input: z.output<typeof companyUserCreateInput>,
): Promise<UserView> {
  const email = normalizeEmail(input.email);
  return retryingOnTakenAddress(() =>
    em.transactional(async (tx) => {
      const address = await addressFor(tx, actor.companyId, email);
      const user = tx.create(User, {
        name: input.name,
        ...address,
        company: tx.getReference(Company, actor.companyId),
        role: input.role,
        isSuperAdmin: false,
      });
      await tx.flush();
      const view = userView(user);
      audit(tx, actor, 'createUser', user.id, null, view);
      await tx.flush();
      return view;
    }),
  );
}

/**
 * Locks the company's owners (in id order, so two changes queue instead of deadlocking), then the user.
 * Under the lock a second change reads the owners as the first one left them: of two owners demoting each
 * other at once, one wins and the other is refused.
 */
async function lockOwnersAndUser(tx: Em, companyId: number, id: number): Promise<{ owners: number[]; user: User }> {
  const owners = await tx.execute<{ id: number }[]>(
    `select id from app_user where company_id = ? and role = 'owner' and removed_at is null and not is_super_admin
     order by id for update`,
    [companyId],
  );
  const user = await tx.findOne(
    User,
    { id, ...reachable(companyId) },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  if (!user) throw new NotFound(tCompany.errors.userNotFound);
  return { owners: owners.map((o) => o.id), user };
}

function ensureNotLastOwner(owners: number[], user: User, newRole: UserRole | null, field?: string) {
  const losesOwner = user.role === 'owner' && newRole !== 'owner';
  if (losesOwner && owners.filter((o) => o !== user.id).length === 0)
    throw new Conflict(tCompany.errors.lastOwner, field);
}

export async function updateCompanyUser(
  em: Em,
  actor: CompanyActor,
  input: z.output<typeof companyUserUpdateInput>,
): Promise<UserView> {
  const email = normalizeEmail(input.email);
  return retryingOnTakenAddress(() =>
    em.transactional(async (tx) => {
      const { owners, user } = await lockOwnersAndUser(tx, actor.companyId, input.id);
      ensureNotLastOwner(owners, user, input.role, 'role');
      const before = userView(user);
      // The address as shown (requestedEmail or email) unchanged: nothing to look up or move.
      if (email !== before.email) Object.assign(user, await addressFor(tx, actor.companyId, email, user.id));
      user.name = input.name;
      user.role = input.role;
      const after = userView(user);
      audit(tx, actor, 'updateUser', user.id, before, after);
      await tx.flush();
      return after;
    }),
  );
}

/**
 * Removes a user from the company: their sessions are deleted (the caller announces their end, so open event
 * streams close), the row stays for the history it signed, with its e-mail address freed for a new user.
 * Answers the removed user and the ids of the sessions that ended.
 */
export async function removeCompanyUser(
  em: Em,
  actor: CompanyActor,
  id: number,
): Promise<{ user: UserView; endedSessions: string[] }> {
  return em.transactional(async (tx) => {
    const { owners, user } = await lockOwnersAndUser(tx, actor.companyId, id);
    ensureNotLastOwner(owners, user, null);
    const before = userView(user);
    const sessions = await tx.find(Session, { user: user.id }, { fields: ['id'] });
    await tx.nativeDelete(Session, { user: user.id });
    user.removedAt = new Date();
    // Not a deliverable address (.invalid), unique by the id: the old address may be given to a new user.
    user.email = `removed-${user.id}@removed.invalid`;
    user.requestedEmail = null;
    user.isSuperAdmin = false;
    audit(tx, actor, 'removeUser', user.id, before, null);
    await tx.flush();
    return { user: before, endedSessions: sessions.map((s) => s.id) };
  });
}
