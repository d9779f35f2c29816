// The owner's own admin (issue 16): the users of one company, listed, added, edited and removed by its owner
// (or support acting as the company). The same rules as the super admin's (server/users): e-mail unique
// across the portal, stored lower-case; plus the last-owner rule: a change never leaves a company that has an
// owner without one. Each change runs in one transaction with its row in the company's trail.
import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import { tCompany } from '../../app/texts/company.js';
import { recordAudit, type Actor } from '../companies/audit.js';
import { likePattern } from '../companies/like.js';
import { Company, Session, User, type UserRole } from '../db/entities.js';
import type { Em } from '../db/orm.js';
import { Conflict, NotFound } from '../errors/domain.js';
import { normalizeEmail } from '../users/normalize.js';
import type { UserView } from '../users/schemas.js';
import { ensureEmailFree, translatingConflicts, userSnapshot, userView } from '../users/users.js';
import type { companyUserCreateInput, companyUserUpdateInput } from './schemas.js';

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
        company: companyId,
        removedAt: null,
        $or: [{ name: { $ilike: likePattern(q) } }, { email: { $ilike: likePattern(q) } }],
      }
    : { company: companyId, removedAt: null };
  const rows = await em.find(User, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: opts.limit,
    offset: opts.offset ?? 0,
  });
  return rows.map(userView);
}

export async function getCompanyUser(em: Em, companyId: number, id: number): Promise<UserView> {
  const user = await em.findOne(User, { id, company: companyId, removedAt: null });
  if (!user) throw new NotFound(tCompany.errors.userNotFound);
  return userView(user);
}

export async function createCompanyUser(
  em: Em,
  actor: CompanyActor,
  input: z.output<typeof companyUserCreateInput>,
): Promise<UserView> {
  const email = normalizeEmail(input.email);
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      await ensureEmailFree(tx, email);
      const user = tx.create(User, {
        name: input.name,
        email,
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
    `select id from app_user where company_id = ? and role = 'owner' and removed_at is null order by id for update`,
    [companyId],
  );
  const user = await tx.findOne(
    User,
    { id, company: companyId, removedAt: null },
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
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      const { owners, user } = await lockOwnersAndUser(tx, actor.companyId, input.id);
      ensureNotLastOwner(owners, user, input.role, 'role');
      if (email !== user.email) await ensureEmailFree(tx, email, user.id);
      const before = userView(user);
      user.name = input.name;
      user.email = email;
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
    user.isSuperAdmin = false;
    audit(tx, actor, 'removeUser', user.id, before, null);
    await tx.flush();
    return { user: before, endedSessions: sessions.map((s) => s.id) };
  });
}
