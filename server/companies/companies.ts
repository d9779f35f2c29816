// Companies, for super admins: list and search, create, read with its users, update.
// Each change runs in one transaction together with its audit row.
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { z } from 'zod';
import { Company, User } from '#server/db/entities.ts';
import { t } from '#domain/texts/common.ts';
import type { Em } from '#server/db/orm.ts';
import type { UserView } from '#domain/companies/user-schemas.ts';
import { userView } from './users.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { Conflict, NotFound } from '#domain/errors.ts';
import { likePattern } from './like.ts';
import type { CompanyView, createCompanyInput, updateCompanyInput } from '#domain/companies/schemas.ts';

export function companyView(c: Company): CompanyView {
  return {
    id: c.id,
    name: c.name,
    customerNumber: c.customerNumber,
    invoiceNote: c.invoiceNote,
    invoiceInterval: c.invoiceInterval,
  };
}

const snapshot = (c: CompanyView) => ({
  name: c.name,
  customerNumber: c.customerNumber,
  invoiceNote: c.invoiceNote,
  invoiceInterval: c.invoiceInterval,
});

export type ListOptions = { q?: string; limit?: number; offset?: number };

/** Companies whose name, customer number or invoice mark contains q (any case), by name. */
export async function listCompanies(em: Em, opts: ListOptions = {}): Promise<CompanyView[]> {
  const q = opts.q?.trim();
  const where = q
    ? {
        $or: [
          { name: { $ilike: likePattern(q) } },
          { customerNumber: { $ilike: likePattern(q) } },
          { invoiceNote: { $ilike: likePattern(q) } },
        ],
      }
    : {};
  const rows = await em.find(Company, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: opts.limit,
    offset: opts.offset ?? 0,
  });
  return rows.map(companyView);
}

async function ensureCustomerNumberFree(em: Em, customerNumber: string, exceptId?: number) {
  const other = await em.findOne(Company, { customerNumber });
  if (other && other.id !== exceptId) throw new Conflict(t.errors.customerNumberTaken, 'customerNumber');
}

/** A unique index may still refuse when two admins save at once: answer as for the check above. */
async function translatingConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UniqueConstraintViolationException)
      throw new Conflict(t.errors.customerNumberTaken, 'customerNumber');
    throw e;
  }
}

export async function createCompany(
  em: Em,
  actor: Actor,
  input: z.output<typeof createCompanyInput>,
): Promise<CompanyView> {
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      await ensureCustomerNumberFree(tx, input.customerNumber);
      const company = tx.create(Company, {
        name: input.name,
        customerNumber: input.customerNumber,
        invoiceNote: input.invoiceNote,
        invoiceInterval: input.invoiceInterval,
      });
      await tx.flush();
      const view = companyView(company);
      recordAudit(tx, actor, {
        action: 'createCompany',
        kind: 'company',
        companyId: company.id,
        targetType: 'Company',
        targetId: company.id,
        before: null,
        after: snapshot(view),
      });
      await tx.flush();
      return view;
    }),
  );
}

export async function updateCompany(
  em: Em,
  actor: Actor,
  input: z.output<typeof updateCompanyInput>,
): Promise<CompanyView> {
  return translatingConflicts(() =>
    em.transactional(async (tx) => {
      // Locked, like a SIM edit: parallel updates then take turns, so each audit row's before is the
      // previous one's after. The row alone (no join), and read afresh under the lock.
      const company = await tx.findOne(
        Company,
        { id: input.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!company) throw new NotFound(t.errors.companyNotFound);
      if (input.customerNumber !== company.customerNumber)
        await ensureCustomerNumberFree(tx, input.customerNumber, company.id);
      const before = snapshot(companyView(company));
      company.name = input.name;
      company.customerNumber = input.customerNumber;
      company.invoiceNote = input.invoiceNote;
      company.invoiceInterval = input.invoiceInterval;
      const after = snapshot(companyView(company));
      recordAudit(tx, actor, {
        action: 'updateCompany',
        kind: 'company',
        companyId: company.id,
        targetType: 'Company',
        targetId: company.id,
        before,
        after,
      });
      await tx.flush();
      return companyView(company);
    }),
  );
}

/** The staff company's name and customer number when it is first made (a super admin may rename it). */
export const STAFF_COMPANY = { name: 'Personal (superadministratörer)', customerNumber: 'PERSONAL' } as const;

/**
 * The portal's own staff company, the only home of super admins (docs/decisions/014), made on first need by
 * the seed and the CLI. Its customer number gets a suffix if a customer already has 'PERSONAL'.
 */
export async function staffCompany(em: Em): Promise<Company> {
  const existing = await em.findOne(Company, { isStaff: true });
  if (existing) return existing;
  const taken = await em.findOne(Company, { customerNumber: STAFF_COMPANY.customerNumber });
  const company = em.create(Company, {
    name: STAFF_COMPANY.name,
    customerNumber: taken ? `${STAFF_COMPANY.customerNumber}-${Date.now()}` : STAFF_COMPANY.customerNumber,
    invoiceNote: '',
    invoiceInterval: 'monthly',
    isStaff: true,
  });
  await em.flush();
  return company;
}

/** One company with its users; q, limit and offset search and page the users (name or e-mail). */
export async function getCompany(
  em: Em,
  id: number,
  users: ListOptions = {},
): Promise<CompanyView & { users: UserView[] }> {
  const company = await em.findOne(Company, { id });
  if (!company) throw new NotFound(t.errors.companyNotFound);
  const q = users.q?.trim();
  const where = q
    ? {
        company,
        removedAt: null,
        $or: [
          { name: { $ilike: likePattern(q) } },
          { email: { $ilike: likePattern(q) } },
          { requestedEmail: { $ilike: likePattern(q) } },
        ],
      }
    : { company, removedAt: null };
  const rows = await em.find(User, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: users.limit,
    offset: users.offset ?? 0,
  });
  return { ...companyView(company), users: rows.map(userView) };
}
