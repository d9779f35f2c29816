// initTRPC once. Exports the router builder and the procedures with their role checks:
// publicProcedure, authedProcedure (401), companyProcedure (the session's company, any role),
// companyWriteProcedure (owner or member: changes SIMs), ownerProcedure (the company's own admin),
// superAdminProcedure (403), and the sensitive changes of the last two that need a recent passkey use (step-up):
// ownerChangeProcedure and superAdminChangeProcedure (403 with `stepUp: true`).
// What a call needs is declared in the procedure's meta (server/trpc/meta.ts: the key scope, the step-up, the cost,
// the Idempotency-Key), which these kinds set and their middleware reads; the doors read it too.
// Every procedure starts with the one error translator (./errors.ts), so a caller in a loader
// and every HTTP door see the same tRPC code and the same issues.
import { getTRPCErrorFromUnknown, initTRPC, type TRPCError } from '@trpc/server';
import { t as texts } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { Forbidden, StepUpRequired, Unauthenticated } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { isSteppedUp, type SessionInfo } from '#server/auth/sessions.ts';
import { callerRole, WRITE_ROLES, type UserRole } from '#domain/companies/kinds.ts';
import type { Context } from './context.ts';
import { httpError, toTRPCError } from './errors.ts';
import type { ProcedureMeta } from './meta.ts';
import { runIdempotent } from './idempotency.ts';

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // What an HTTP client reads: our Swedish message and the issues, never a stack or a library's text.
    errorFormatter({ shape, error, ctx }) {
      const { body } = httpError(error, ctx?.requestId);
      // A missing step-up carries `stepUp: true` here too, as on the REST and JSON doors (decision 026).
      const stepUp = body.stepUp === true ? { stepUp: true } : {};
      return {
        ...shape,
        message: body.error,
        data: { ...shape.data, stack: undefined, issues: body.issues, ...stepUp },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/** The rest of the chain's failure with its tRPC code (the one translator, ./errors.ts). */
function translated<R extends { ok: boolean }>(result: R): R {
  return result.ok ? result : { ...result, error: toTRPCError((result as R & { error: TRPCError }).error) };
}

/** A kind's own refusal, translated as the base procedure's middleware would translate it. */
const refusal = (err: unknown) => toTRPCError(getTRPCErrorFromUnknown(err));

export const publicProcedure = t.procedure.use(async ({ next }) => translated(await next()));

// The kinds below translate in their own one middleware instead of adding theirs under publicProcedure's: each
// level of tRPC's chain copies its options (and, with `next({ ctx })`, the whole context) again, which was a
// measurable part of a REST read (docs/benchmarks.md). The same checks, codes and order.

/** A signed-in person. An API key is no person: it gets 403 here (admin, /api/company/*, feedback, auth). */
export const authedProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (ctx.networkKey) throw refusal(new Forbidden(tNetwork.errors.onlyUsage));
  if (ctx.apiKey) throw refusal(new Forbidden(tApiKeys.errors.notForKeys));
  if (!ctx.session) throw refusal(new Unauthenticated(texts.errors.unauthenticated));
  return translated(await next({ ctx: { session: ctx.session } })); // tRPC merges it into the context
});

/**
 * Company data: the company always comes from the caller, never the input: the session's (the acting company
 * for a super admin) or the API key's. A key of scope read reads as a viewer would, write as a member. A procedure
 * whose meta says `keyScope: 'write'` (companyWriteProcedure) changes the company's SIMs: owner, member or a
 * write key; else 403.
 */
export const companyProcedure = t.procedure.meta({ keyScope: 'read' }).use(async ({ ctx, meta, next }) => {
  const key = ctx.apiKey;
  const session = ctx.session;
  if (ctx.networkKey) throw refusal(new Forbidden(tNetwork.errors.onlyUsage));
  if (!key && !session) throw refusal(new Unauthenticated(texts.errors.unauthenticated));
  const companyId = key ? key.companyId : session ? session.companyId : 0;
  const role: UserRole = key ? (key.scope === 'write' ? 'member' : 'viewer') : session ? callerRole(session) : 'viewer';
  if (meta?.keyScope === 'write' && !WRITE_ROLES.includes(role))
    throw refusal(new Forbidden(key ? tApiKeys.errors.readOnly : tCompany.errors.viewerForbidden));
  return translated(await next({ ctx: { companyId, role } }));
});

/** Changes to the company's SIMs (activate, edit, deactivate, bulk): owner, member or a write key; else 403. */
export const companyWriteProcedure = companyProcedure.meta({ keyScope: 'write' });

/** A person's company data (feedback): like companyProcedure, but a session only, never an API key. */
export const companyUserProcedure = authedProcedure.use(({ ctx, next }) =>
  next({ ctx: { companyId: ctx.session.companyId, role: callerRole(ctx.session) } }),
);

/** The company's own admin (/company, /api/company/*): owners only, never an API key. */
export const ownerProcedure = companyUserProcedure.use(({ ctx, next }) => {
  if (ctx.role !== 'owner') throw new Forbidden(tCompany.errors.ownerOnly);
  return next();
});

export const superAdminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!ctx.session.isSuperAdmin) throw new Forbidden(texts.errors.forbidden);
  return next();
});

/**
 * The operator's network (decision 034): a request with a network integration key only, which no other kind
 * admits; anyone else 401 (no caller) or 403 (a session or a company's API key).
 */
export const networkProcedure = t.procedure.meta({ networkKey: true }).use(async ({ ctx, next }) => {
  const networkKey = ctx.networkKey;
  if (!networkKey)
    throw refusal(
      ctx.session || ctx.apiKey ? new Forbidden(tNetwork.errors.missing) : new Unauthenticated(tNetwork.errors.missing),
    );
  return translated(await next({ ctx: { networkKey } }));
});

/** Refuses a sensitive change of a session without a passkey use in the last 10 minutes. */
export function requireStepUp(session: Pick<SessionInfo, 'steppedUpAt'>): void {
  if (!isSteppedUp(session)) throw new StepUpRequired(tSecurity.stepUp.required);
}

/** The step-up a procedure's meta declares, checked after its role (a member is told 'owners only', not 'step up'). */
const declaredStepUp = t.middleware(({ ctx, meta, next }) => {
  if (meta?.stepUp) requireStepUp(ctx.session ?? { steppedUpAt: null });
  return next();
});

/** An owner's sensitive change (API keys, webhooks, roles, the company's sign-in settings): owner + step-up. */
export const ownerChangeProcedure = ownerProcedure.meta({ stepUp: true }).use(declaredStepUp);

/** Every change by a super admin (and acting as a company): super admin + step-up. */
export const superAdminChangeProcedure = superAdminProcedure.meta({ stepUp: true }).use(declaredStepUp);

/**
 * A REST write's Idempotency-Key, for a procedure whose meta says `idempotent: true`: used after its kind's checks
 * (role, key scope, step-up) and before its `.input()`, so a replay goes only to a caller who passes them now and a
 * refusal of the body is stored like any other answer (./idempotency.ts). Without a key it does nothing.
 */
export const idempotent = t.middleware(({ ctx, next }) =>
  ctx.idempotency ? runIdempotent(ctx, ctx.idempotency, (over) => next({ ctx: over })) : next(),
);
