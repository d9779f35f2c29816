// The app router: every business operation is one procedure here, grouped by domain.
import { z } from 'zod';
import { databaseIsUp } from '../db/orm.js';
import { publicProcedure, router } from './trpc.js';

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
  }),
});

export type AppRouter = typeof appRouter;
