// Single sign-on by OpenID Connect: starting and finishing a sign-in through a company's identity provider (public:
// the login form and the callback), a step-up through it, and the company's sign-in settings for its owner and
// for a super admin (every change needs a recent step-up; the client secret is never answered; a domain signs in only
// once its TXT record is found).
import { z } from 'zod';
import { requestLinkInput } from '#domain/auth/schemas.ts';
import {
  adminCheckDomainInput,
  adminRequirePasskeysInput,
  adminSsoSaveInput,
  checkDomainInput,
  checkDomainOutput,
  companyIdInput,
  requirePasskeysInput,
  ssoSaveInput,
  ssoSettingsOutput,
} from '#domain/sso/schemas.ts';
import { SESSION_STAGES } from '#server/db/entities.ts';
import {
  bindingCookie,
  finishSso,
  isOwnAuthorizationUrl,
  newBinding,
  removeSso,
  saveSso,
  setRequirePasskeys,
  ssoSettings,
  SSO_PROBLEMS,
  SSO_START_LIMIT,
  startSso,
  type SsoActor,
} from '#server/auth/sso.ts';
import { checkSsoDomains, ssoForEmail } from '#server/auth/sso-domains.ts';
import { SsoConfig } from '#server/db/entities.ts';
import { verifyProvider } from '#server/auth/sso-connection.ts';
import { hit } from '#server/auth/rate-limit.ts';
import { Forbidden } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import type { Context } from '#server/trpc/context.ts';
import {
  authedProcedure,
  ownerChangeProcedure,
  ownerProcedure,
  publicProcedure,
  router,
  superAdminChangeProcedure,
  superAdminProcedure,
} from '#server/trpc/trpc.ts';
import { setSessionCookie, success } from './auth.ts';

const binding = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,100}$/)
  .nullish();

const startOutput = z.object({
  /** The provider's authorization URL to send the browser to; null when the address has no single sign-on. */
  redirect: z.string().nullable(),
  /** Why the provider cannot be used now (the login page shows its text). */
  problem: z.enum(SSO_PROBLEMS).nullable(),
  /** Whether e-mail links still sign in this address (false: the company allows only its provider). */
  emailLink: z.boolean(),
});

/** The browser binding: the one the browser has, or a new one set as a cookie on this answer. */
function browserBinding(ctx: Context, sent: string | null | undefined): string {
  const value = sent ?? newBinding();
  ctx.resHeaders.append('Set-Cookie', bindingCookie(value, ctx.services.config.secureCookies));
  return value;
}

const actorOf = (session: { userId: number; actingCompanyId: number | null }): SsoActor => ({
  userId: session.userId,
  actingCompanyId: session.actingCompanyId,
});

export const ssoRouter = router({
  /** For the login form: the address's company provider, if it has one (then its URL), else nothing to do. */
  start: publicProcedure
    .input(requestLinkInput.extend({ binding }))
    .output(startOutput)
    .mutation(async ({ ctx, input }) => {
      const found = await ssoForEmail(ctx.em, input.destination);
      if (!found) return { redirect: null, problem: null, emailLink: true };
      if (!(await hit(ctx.em, `sso:start:${ctx.ip}`, SSO_START_LIMIT)))
        return { redirect: null, problem: 'tooMany' as const, emailLink: found.allowEmailLink };
      const started = await startSso(ctx.services, ctx.em, {
        companyId: found.companyId,
        binding: browserBinding(ctx, input.binding),
        redirectTo: input.redirectTo ?? null,
        loginHint: input.destination,
      });
      return 'url' in started
        ? { redirect: started.url, problem: null, emailLink: found.allowEmailLink }
        : { redirect: null, problem: started.problem, emailLink: found.allowEmailLink };
    }),
  /** The provider URL a browser without JavaScript is handed on to, if it is this browser's own login's. */
  continueTo: publicProcedure
    .input(z.object({ url: z.string().max(8000), binding }))
    .output(z.object({ url: z.string().nullable() }))
    .query(async ({ ctx, input }) => ({
      url: (await isOwnAuthorizationUrl(ctx.services, ctx.em, input.url, input.binding ?? null)) ? input.url : null,
    })),
  /** The provider's redirect back (GET /auth/sso/callback): its query and the browser's binding cookie. */
  finish: publicProcedure
    .input(z.object({ search: z.string().max(8000), binding }))
    .output(
      z.object({
        problem: z.enum(SSO_PROBLEMS).nullable(),
        redirectTo: z.string().nullable(),
        stage: z.enum(SESSION_STAGES).nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await finishSso(ctx.services, input.search, input.binding ?? null, {
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      // The binding has served its one login either way.
      ctx.resHeaders.append('Set-Cookie', bindingCookie('', ctx.services.config.secureCookies));
      if (!result.ok) return { problem: result.problem, redirectTo: null, stage: null };
      if (result.sessionId) setSessionCookie(ctx, result.sessionId);
      return { problem: null, redirectTo: result.redirectTo, stage: result.stage };
    }),
  /** A step-up through the provider, for a session signed in by it whose company names the provider's MFA. */
  stepUp: authedProcedure
    .input(z.object({ redirectTo: z.string().max(2000).nullish(), binding }))
    .output(startOutput)
    .mutation(async ({ ctx, input }) => {
      const session = ctx.session;
      const sso = await ctx.em.findOne(SsoConfig, { company: session.ownCompanyId });
      if (session.method !== 'sso' || !sso?.mfaClaim || session.actingCompanyId !== null)
        throw new Forbidden(tSecurity.stepUp.required);
      const started = await startSso(ctx.services, ctx.em, {
        companyId: session.ownCompanyId,
        binding: browserBinding(ctx, input.binding),
        redirectTo: input.redirectTo ?? null,
        loginHint: session.email,
        stepUpSession: session.id,
      });
      return 'url' in started
        ? { redirect: started.url, problem: null, emailLink: sso.allowEmailLink }
        : { redirect: null, problem: started.problem, emailLink: sso.allowEmailLink };
    }),

  // The company's own sign-in settings (/company/sign-in): its owner.
  settings: ownerProcedure
    .input(z.void())
    .output(ssoSettingsOutput)
    .query(({ ctx }) => ssoSettings(ctx.services, ctx.em, ctx.companyId)),
  save: ownerChangeProcedure
    .input(ssoSaveInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await verifyProvider(ctx.services, input.issuer);
      await saveSso(ctx.services, ctx.em, actorOf(ctx.session), ctx.companyId, input);
      return { success: true };
    }),
  remove: ownerChangeProcedure
    .input(z.void())
    .output(success)
    .mutation(async ({ ctx }) => {
      await removeSso(ctx.em, actorOf(ctx.session), ctx.companyId);
      return { success: true };
    }),
  /** Checks a domain's TXT record now; a found one signs in through the provider from then on. */
  checkDomain: ownerChangeProcedure
    .input(checkDomainInput)
    .output(checkDomainOutput)
    .mutation(async ({ ctx, input }) => {
      const [result] = await checkSsoDomains(ctx.services, ctx.em, actorOf(ctx.session), ctx.companyId, input.domain);
      return result ?? { domain: input.domain, state: 'missing' as const };
    }),
  requirePasskeys: ownerChangeProcedure
    .input(requirePasskeysInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await setRequirePasskeys(ctx.em, actorOf(ctx.session), ctx.companyId, input.requirePasskeys);
      return { success: true };
    }),

  // Any company's (/admin/companies/:companyId/sign-in): a super admin.
  adminSettings: superAdminProcedure
    .input(companyIdInput)
    .output(ssoSettingsOutput)
    .query(({ ctx, input }) => ssoSettings(ctx.services, ctx.em, input.companyId)),
  adminSave: superAdminChangeProcedure
    .input(adminSsoSaveInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const { companyId, ...fields } = input;
      await verifyProvider(ctx.services, fields.issuer);
      await saveSso(ctx.services, ctx.em, actorOf(ctx.session), companyId, fields);
      return { success: true };
    }),
  adminRemove: superAdminChangeProcedure
    .input(companyIdInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await removeSso(ctx.em, actorOf(ctx.session), input.companyId);
      return { success: true };
    }),
  adminCheckDomain: superAdminChangeProcedure
    .input(adminCheckDomainInput)
    .output(checkDomainOutput)
    .mutation(async ({ ctx, input }) => {
      const [result] = await checkSsoDomains(ctx.services, ctx.em, actorOf(ctx.session), input.companyId, input.domain);
      return result ?? { domain: input.domain, state: 'missing' as const };
    }),
  adminRequirePasskeys: superAdminChangeProcedure
    .input(adminRequirePasskeysInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await setRequirePasskeys(ctx.em, actorOf(ctx.session), input.companyId, input.requirePasskeys);
      return { success: true };
    }),
});
