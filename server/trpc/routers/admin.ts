// Super admin procedures: companies, users, acting as a company. Each is also a REST path of the spec
// (/api/admin/...) through trpc-to-openapi; the rules live in server/companies and server/users.
import { rowId, z } from '#domain/zod.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { actAsCompany } from '#server/auth/acting.ts';
import type { Actor } from '#server/audit/trail.ts';
import { createCompany, getCompany, listCompanies, updateCompany } from '#server/companies/companies.ts';
import { listAuditTrail } from '#server/audit/activity.ts';
import { auditTrailPageOutput, auditTrailQuery } from '#domain/companies/owner-schemas.ts';
import { companyOutput, createCompanyInput, listQuery, updateCompanyInput } from '#domain/companies/schemas.ts';
import { createUserInput, updateUserInput, userOutput } from '#domain/companies/user-schemas.ts';
import { createUser, getUser, updateUser } from '#server/companies/users.ts';
import type { SessionInfo } from '#server/auth/sessions.ts';
import { router, superAdminChangeProcedure, superAdminProcedure, idempotent } from '#server/trpc/trpc.ts';
import { setSessionCookie, success } from './auth.ts';

const actor = (session: SessionInfo): Actor => ({ userId: session.userId, actingCompanyId: session.actingCompanyId });
const id = rowId('Ogiltigt id.');
const tags = ['admin'];

export const adminRouter = router({
  getCompanies: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/getCompanies',
        tags,
        summary: 'List companies',
        description:
          'Companies by name; q searches name, customer number and invoice mark; limit (default and at most 50) and offset page.',
      },
    })
    .input(z.object(listQuery))
    .output(z.array(companyOutput))
    .query(({ ctx, input }) => listCompanies(ctx.em, input)),

  createCompany: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/createCompany',
        tags,
        summary: 'Create a company',
        description:
          'A new company with its name, customer number, invoice note and invoice interval; a customer number already taken is a 409 on customerNumber.',
      },
    })
    .use(idempotent)
    .input(createCompanyInput)
    .output(z.object({ newCompany: companyOutput }))
    .mutation(async ({ ctx, input }) => {
      const newCompany = await createCompany(ctx.em, actor(ctx.session), input);
      await ctx.notify('info', tAdmin.companies.created, newCompany.name);
      return { newCompany };
    }),

  getCompany: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/getCompany/{id}',
        tags,
        summary: 'One company with its users',
        description: 'A company with its users; q searches the users by name or e-mail, limit and offset page them.',
      },
    })
    .input(z.object({ id, ...listQuery }))
    .output(companyOutput.extend({ users: z.array(userOutput) }))
    .query(({ ctx, input }) => getCompany(ctx.em, input.id, input)),

  updateCompany: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'PUT',
        path: '/admin/updateCompany',
        tags,
        summary: 'Edit a company',
        description:
          "Change a company's name, customer number, invoice note and invoice interval; a customer number already taken is a 409 on customerNumber.",
      },
    })
    .use(idempotent)
    .input(updateCompanyInput)
    .output(z.object({ success: z.boolean(), company: companyOutput }))
    .mutation(async ({ ctx, input }) => {
      const company = await updateCompany(ctx.em, actor(ctx.session), input);
      await ctx.notify('info', tAdmin.companies.updated, company.name);
      return { success: true, company };
    }),

  loginAsCompany: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/loginAsCompany',
        tags,
        summary: 'Act as a company',
        description:
          "The session acts as the company's owner (support) until it stops acting; the new session cookie is set in the answer.",
      },
    })
    .use(idempotent)
    .input(z.object({ companyId: rowId() }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const raw = await actAsCompany(ctx.services, ctx.em, ctx.session, input.companyId);
      if (raw) setSessionCookie(ctx, raw);
      return { success: true };
    }),

  createUser: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/createUser',
        tags,
        summary: 'Create a user',
        description:
          'A new user of a company (name, email, role: member when left out); an e-mail already taken is a 409 on email. No mail is sent.',
      },
    })
    .use(idempotent)
    .input(createUserInput)
    .output(z.object({ newUser: userOutput }))
    .mutation(async ({ ctx, input }) => {
      const newUser = await createUser(ctx.em, actor(ctx.session), input);
      await ctx.notify('info', tAdmin.user.created, newUser.email);
      return { newUser };
    }),

  getUser: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/getUser/{id}',
        tags,
        summary: 'One user',
        description: 'A user; with companyId, only if the user belongs to that company.',
      },
    })
    .input(z.object({ id, companyId: id.optional() }))
    .output(userOutput)
    .query(({ ctx, input }) => getUser(ctx.em, input.id, input.companyId)),

  audit: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/audit',
        tags,
        summary: 'The audit trail of every company',
        description:
          "Every company's audit rows and the staff's own, newest first: companyId or customerNumber and kind filter; before (the previous page's nextBefore) and limit (default and at most 50) page.",
      },
    })
    .input(auditTrailQuery)
    .output(auditTrailPageOutput)
    .query(({ ctx, input }) => listAuditTrail(ctx.em, input)),

  updateUser: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'PUT',
        path: '/admin/updateUser',
        tags,
        summary: 'Edit a user',
        description:
          "Change a user's name, e-mail and role (or super admin); an e-mail already taken is a 409 on email.",
      },
    })
    .use(idempotent)
    .input(updateUserInput)
    .output(z.object({ success: z.boolean(), user: userOutput }))
    .mutation(async ({ ctx, input }) => {
      const user = await updateUser(ctx.em, actor(ctx.session), input);
      await ctx.notify('info', tAdmin.user.updated, user.email);
      return { success: true, user };
    }),
});
