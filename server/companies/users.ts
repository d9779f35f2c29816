// Users, for super admins: create in a company, read, update. E-mail addresses are unique across all
// companies regardless of case (stored lower-case); a super admin cannot take away their own super-admin flag.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { z } from 'zod';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { Company, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { Conflict, Invalid, NotFound } from '#domain/errors.ts';
import { normalizeEmail } from './email.ts';
import type { createUserInput, updateUserInput, UserView } from '#domain/companies/user-schemas.ts';

export function userView(u: User): UserView {
  return {
    id: u.id,
    name: u.name,
    // An address given by an owner that belongs to someone else shows as given (docs/decisions/014).
    email: u.requestedEmail ?? u.email,
    companyId: u.company.id,
    isCompanyOwner: u.role === 'owner',
    isSuperAdmin: u.isSuperAdmin,
    role: u.role,
  };
}

export const userSnapshot = (u: UserView) => ({
  name: u.name,
  email: u.email,
  companyId: u.companyId,
  isCompanyOwner: u.isCompanyOwner,
  isSuperAdmin: u.isSuperAdmin,
  role: u.role,
});
const snapshot = userSnapshot;

/** E-mail addresses are unique across the portal (stored lower-case). */
export async function ensureEmailFree(em: Em, email: string, exceptId?: number) {
  const other = await em.findOne(User, { email });
  if (other && other.id !== exceptId) throw new Conflict(t.errors.emailTaken, 'email');
}

export async function translatingConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException) throw new Conflict(t.errors.emailTaken, 'email');
    throw e;
  }
}

export async function createUser(em: Em, actor: Actor, input: z.output<typeof createUserInput>): Promise<UserView> {
  const email = normalizeEmail(input.email);
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      const company = await tx.findOne(Company, { id: input.companyId });
      if (!company) throw new NotFound(t.errors.companyNotFound);
      await ensureEmailFree(tx, email);
      const user = tx.create(User, {
        name: input.name,
        email,
        company,
        role: input.role ?? 'member',
        isSuperAdmin: false,
      });
      await tx.flush();
      const view = userView(user);
      recordAudit(tx, actor, {
        action: 'createUser',
        kind: 'user',
        companyId: company.id,
        targetType: 'User',
        targetId: user.id,
        before: null,
        after: snapshot(view),
      });
      await tx.flush();
      return view;
    }),
  );
}

/** A user, optionally only if they belong to the given company (the company in a page's URL). */
export async function getUser(em: Em, id: number, companyId?: number): Promise<UserView> {
  const user = await em.findOne(
    User,
    companyId === undefined ? { id, removedAt: null } : { id, company: companyId, removedAt: null },
  );
  if (!user) throw new NotFound(companyId === undefined ? t.errors.userNotFound : t.errors.userNotInCompany);
  return userView(user);
}

export async function updateUser(em: Em, actor: Actor, input: z.output<typeof updateUserInput>): Promise<UserView> {
  const email = normalizeEmail(input.email);
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      // Locked, like a SIM edit: parallel updates take turns and the audit chain stays unbroken.
      const user = await tx.findOne(
        User,
        input.companyId === undefined
          ? { id: input.id, removedAt: null }
          : { id: input.id, company: input.companyId, removedAt: null },
        {
          lockMode: LockMode.PESSIMISTIC_WRITE,
          refresh: true,
        },
      );
      if (!user) throw new NotFound(input.companyId === undefined ? t.errors.userNotFound : t.errors.userNotInCompany);
      if (user.id === actor.userId && user.isSuperAdmin && !input.isSuperAdmin) {
        throw Invalid.field('isSuperAdmin', t.errors.ownSuperAdmin);
      }
      if (input.isSuperAdmin && !user.isSuperAdmin) {
        // Super admins live in the staff company only, out of every customer owner's reach (decision 014).
        const company = await tx.findOneOrFail(Company, { id: user.company.id });
        if (!company.isStaff) throw Invalid.field('isSuperAdmin', t.errors.superAdminOnlyStaff);
      }
      if (email !== user.email) await ensureEmailFree(tx, email, user.id);
      const before = snapshot(userView(user));
      user.name = input.name;
      user.email = email;
      user.requestedEmail = null;
      if (input.role !== undefined && (input.role === 'owner') !== input.isCompanyOwner)
        throw Invalid.field('isCompanyOwner', tCompany.errors.role);
      user.role = input.role ?? (input.isCompanyOwner ? 'owner' : user.role === 'owner' ? 'member' : user.role);
      user.isSuperAdmin = input.isSuperAdmin;
      const after = snapshot(userView(user));
      recordAudit(tx, actor, {
        action: 'updateUser',
        kind: 'user',
        companyId: user.company.id,
        targetType: 'User',
        targetId: user.id,
        before,
        after,
      });
      await tx.flush();
      return userView(user);
    }),
  );
}
