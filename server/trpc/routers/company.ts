// The company's own admin: its users and its activity trail, for the company's owners (and support
// acting as the company). Each is also a REST path (/api/company/...); API keys will never reach these.
import { tCompany } from '#domain/texts/company.ts';
import { announceSessionEnded } from '#server/auth/sessions.ts';
import { activityCsv, listActivity } from '#server/audit/activity.ts';
import {
  activityPageOutput,
  activityQuery,
  auditKind,
  companyUserCreateInput,
  companyUserIdInput,
  companyUserUpdateInput,
  companyUsersQuery,
} from '#domain/companies/owner-schemas.ts';
import {
  createCompanyUser,
  getCompanyUser,
  listCompanyUsers,
  removeCompanyUser,
  updateCompanyUser,
  type CompanyActor,
} from '#server/companies/owner-admin.ts';
import { userOutput } from '#domain/companies/user-schemas.ts';
import { z } from '#domain/zod.ts';
import { ownerChangeProcedure, ownerProcedure, router, idempotent } from '#server/trpc/trpc.ts';
import { success } from './auth.ts';

const tags = ['company'];
const actor = (ctx: { companyId: number; session: { userId: number; actingCompanyId: number | null } }) =>
  ({
    userId: ctx.session.userId,
    actingCompanyId: ctx.session.actingCompanyId,
    companyId: ctx.companyId,
  }) satisfies CompanyActor;

export const companyRouter = router({
  users: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/users',
        tags,
        summary: "The company's users by name; q searches name and e-mail, limit and offset page",
      },
    })
    .input(companyUsersQuery)
    .output(z.array(userOutput))
    .query(({ ctx, input }) => listCompanyUsers(ctx.em, ctx.companyId, input)),

  user: ownerProcedure
    .input(companyUserIdInput)
    .output(userOutput)
    .query(({ ctx, input }) => getCompanyUser(ctx.em, ctx.companyId, input.id)),

  createUser: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/users',
        tags,
        summary: 'Add a user (name, email, role: owner, member or viewer); no mail is sent',
      },
    })
    .use(idempotent)
    .input(companyUserCreateInput)
    .output(z.object({ newUser: userOutput }))
    .mutation(async ({ ctx, input }) => {
      const newUser = await createCompanyUser(ctx.em, actor(ctx), input);
      await ctx.notify('info', tCompany.added(newUser.name));
      return { newUser };
    }),

  updateUser: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'PUT',
        path: '/company/users',
        tags,
        summary: "Edit a user's name, email and role; the last owner cannot be demoted",
      },
    })
    .use(idempotent)
    .input(companyUserUpdateInput)
    .output(z.object({ success: z.boolean(), user: userOutput }))
    .mutation(async ({ ctx, input }) => {
      const user = await updateCompanyUser(ctx.em, actor(ctx), input);
      await ctx.notify('info', tCompany.saved, user.name);
      return { success: true, user };
    }),

  removeUser: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/users/remove/{id}',
        tags,
        summary: 'Remove a user: their sessions and event streams end at once; the last owner cannot be removed',
      },
    })
    .use(idempotent)
    .input(companyUserIdInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const { user, endedSessions } = await removeCompanyUser(ctx.em, actor(ctx), input.id);
      for (const id of endedSessions) await announceSessionEnded(ctx.services, id);
      // Removing oneself ends this session too: no toast to a tab that is logged out.
      if (user.id !== ctx.session.userId) await ctx.notify('info', tCompany.removed(user.name));
      return { success: true };
    }),

  audit: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/audit',
        tags,
        summary:
          "The company's activity, newest first; kind filters, before (the previous page's nextBefore) and limit (default and at most 50) page",
      },
    })
    .input(activityQuery)
    .output(activityPageOutput)
    .query(({ ctx, input }) => listActivity(ctx.em, ctx.companyId, input)),

  /** The trail as a CSV file, for the activity page's download. */
  auditCsv: ownerProcedure
    .input(z.object({ kind: auditKind.optional() }))
    .output(z.object({ filename: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => activityCsv(ctx.em, ctx.companyId, input.kind)),
});
