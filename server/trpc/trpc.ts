// initTRPC once. Exports the router builder and the procedures with their role checks:
// publicProcedure, authedProcedure (401), companyProcedure (the session's company), superAdminProcedure (403).
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { Context } from './context.js';

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const zod = error.cause instanceof ZodError ? error.cause : null;
      const field = (error.cause as { field?: string } | undefined)?.field;
      return {
        ...shape,
        data: {
          ...shape.data,
          stack: undefined,
          issues: zod
            ? zod.issues.map((i) => ({ path: i.path.map(String), message: i.message }))
            : field
              ? [{ path: [field], message: error.message }]
              : undefined,
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Du är inte inloggad.' });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Company data: the company always comes from the session (the acting company for a super admin). */
export const companyProcedure = authedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, companyId: ctx.session.companyId } }),
);

export const superAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.session.isSuperAdmin) {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Du har inte behörighet till detta.' });
  }
  return next();
});
