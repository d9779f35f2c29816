// initTRPC once. Exports the router builder and the procedures with their role checks:
// publicProcedure, authedProcedure (401), companyProcedure (the session's company), superAdminProcedure (403).
// Every procedure starts with the one error translator (server/errors/answer.ts), so a caller in a loader
// and every HTTP door see the same tRPC code and the same issues.
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { t as texts } from '../../app/texts.js';
import { httpError, toTRPCError } from '../errors/answer.js';
import { Forbidden, Unauthenticated } from '../errors/domain.js';
import type { Context } from './context.js';

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta>()
  .create({
    // What an HTTP client reads: our Swedish message and the issues, never a stack or a library's text.
    errorFormatter({ shape, error, ctx }) {
      const { body } = httpError(error, ctx?.requestId);
      return { ...shape, message: body.error, data: { ...shape.data, stack: undefined, issues: body.issues } };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  return result.ok ? result : { ...result, error: toTRPCError(result.error) };
});

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new Unauthenticated(texts.errors.unauthenticated);
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Company data: the company always comes from the session (the acting company for a super admin). */
export const companyProcedure = authedProcedure.use(({ ctx, next }) =>
  next({ ctx: { ...ctx, companyId: ctx.session.companyId } }),
);

export const superAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.session.isSuperAdmin) throw new Forbidden(texts.errors.forbidden);
  return next();
});
