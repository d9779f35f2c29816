// The app router: every business operation is one procedure here, grouped by domain.
import { z } from 'zod';
import { actAsCompany } from '../auth/acting.js';
import { sessionCookie } from '../auth/sessions.js';
import { databaseIsUp } from '../db/orm.js';
import { authedProcedure, publicProcedure, router, superAdminProcedure } from './trpc.js';
import type { Context } from './context.js';

const success = z.object({ success: z.boolean() });

function setSessionCookie(ctx: Context, raw: string) {
  ctx.resHeaders.append('Set-Cookie', sessionCookie(raw, ctx.services.config.secureCookies));
}

export const appRouter = router({
  health: publicProcedure.output(z.object({ status: z.literal('ok'), db: z.enum(['ok', 'down']) })).query(async ({ ctx }) => ({
    status: 'ok' as const,
    db: (await databaseIsUp(ctx.services.orm)) ? ('ok' as const) : ('down' as const),
  })),
  auth: router({
    session: publicProcedure
      .meta({ openapi: { method: 'GET', path: '/auth/session', tags: ['auth'] } })
      .input(z.void())
      .output(z.object({ authenticated: z.boolean(), isSuperAdmin: z.boolean() }))
      .query(({ ctx }) => ({ authenticated: !!ctx.session, isSuperAdmin: !!ctx.session?.isSuperAdmin })),
    stopActing: authedProcedure.input(z.void()).output(success).mutation(async ({ ctx }) => {
      setSessionCookie(ctx, await actAsCompany(ctx.em, ctx.session, null));
      return { success: true };
    }),
  }),
  admin: router({
    loginAsCompany: superAdminProcedure
      .meta({ openapi: { method: 'POST', path: '/admin/loginAsCompany', tags: ['admin'] } })
      .input(z.object({ companyId: z.coerce.number().int().positive() }))
      .output(success)
      .mutation(async ({ ctx, input }) => {
        setSessionCookie(ctx, await actAsCompany(ctx.em, ctx.session, input.companyId));
        return { success: true };
      }),
  }),
});

export type AppRouter = typeof appRouter;
