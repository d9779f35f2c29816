// Super admin procedures: companies, users, acting as a company.
import { z } from 'zod';
import { actAsCompany } from '../../auth/acting.js';
import { router, superAdminProcedure } from '../trpc.js';
import { setSessionCookie, success } from './auth.js';

export const adminRouter = router({
  loginAsCompany: superAdminProcedure
    .meta({ openapi: { method: 'POST', path: '/admin/loginAsCompany', tags: ['admin'] } })
    .input(z.object({ companyId: z.coerce.number().int().positive() }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      setSessionCookie(ctx, await actAsCompany(ctx.em, ctx.session, input.companyId));
      return { success: true };
    }),
});
