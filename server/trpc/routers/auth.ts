// Session and acting-company procedures.
import { z } from 'zod';
import { actAsCompany } from '#server/auth/acting.ts';
import { requestLinkInput } from '#domain/auth/schemas.ts';
import { checkLoginLink, consumeLoginLink, requestLoginLink } from '#server/auth/login.ts';
import { ssoForEmail } from '#server/auth/sso-domains.ts';
import {
  announceSessionEnded,
  clearSessionCookie,
  deleteSession,
  sessionCookie,
  setFlash,
} from '#server/auth/sessions.ts';
import type { Context } from '#server/trpc/context.ts';
import { SESSION_STAGES } from '#server/db/entities.ts';
import { authedProcedure, publicProcedure, router } from '#server/trpc/trpc.ts';

export const success = z.object({ success: z.boolean() });

export function setSessionCookie(ctx: Context, raw: string) {
  ctx.resHeaders.append('Set-Cookie', sessionCookie(raw, ctx.services.config.secureCookies));
}

export const authRouter = router({
  session: publicProcedure
    .input(z.void())
    .output(z.object({ authenticated: z.boolean(), isSuperAdmin: z.boolean() }))
    .query(({ ctx }) => ({ authenticated: !!ctx.session, isSuperAdmin: !!ctx.session?.isSuperAdmin })),
  /** Answers the same whether or not the address has an account; the mail goes out afterwards. */
  requestLink: publicProcedure
    .input(requestLinkInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      // A company that signs its domains in only through its identity provider gets no login links for them.
      const sso = await ssoForEmail(ctx.em, input.destination);
      if (!sso || sso.allowEmailLink)
        requestLoginLink(ctx.services, { email: input.destination, ip: ctx.ip, redirectTo: input.redirectTo ?? null });
      return { success: true };
    }),
  checkLink: publicProcedure
    .input(z.object({ token: z.string().max(2000) }))
    .output(z.object({ problem: z.enum(['invalid', 'expired', 'used']).nullable() }))
    .query(async ({ ctx, input }) => ({ problem: await checkLoginLink(ctx.em, input.token) })),
  /** Uses a login link once: marks it used and starts a session (Set-Cookie on the answer). */
  consumeLink: publicProcedure
    .input(z.object({ token: z.string().max(2000) }))
    .output(
      z.object({
        problem: z.enum(['invalid', 'expired', 'used']).nullable(),
        redirectTo: z.string().nullable(),
        /** full: signed in; passkey or register: the passkey page comes first. */
        stage: z.enum(SESSION_STAGES).nullable(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await consumeLoginLink(ctx.services, input.token, { ip: ctx.ip, userAgent: ctx.userAgent });
      if (!result.ok) return { problem: result.problem, redirectTo: null, stage: null };
      setSessionCookie(ctx, result.sessionId);
      return { problem: null, redirectTo: result.redirectTo, stage: result.stage };
    }),
  logout: publicProcedure
    .input(z.void())
    .output(success)
    .mutation(async ({ ctx }) => {
      // A session still signing in may log out too (and so end its half-made sign-in at once).
      const session = ctx.session ?? ctx.pending;
      if (session) {
        await deleteSession(ctx.em, session.id);
        await announceSessionEnded(ctx.services, session.id);
      }
      ctx.resHeaders.append('Set-Cookie', clearSessionCookie(ctx.services.config.secureCookies));
      return { success: true };
    }),
  /** The one-time toast kept for this page, cleared as it is read. */
  takeFlash: authedProcedure
    .input(z.void())
    .output(
      z.object({ id: z.string(), type: z.enum(['error', 'info']), title: z.string(), message: z.string() }).nullable(),
    )
    .mutation(async ({ ctx }) => {
      const flash = ctx.session.flash;
      if (flash) await setFlash(ctx.em, ctx.session.id, null);
      return flash;
    }),
  /** Back to the user's own company; for a user who is not acting as another, nothing changes. */
  stopActing: authedProcedure
    .input(z.void())
    .output(success)
    .mutation(async ({ ctx }) => {
      const raw = await actAsCompany(ctx.services, ctx.em, ctx.session, null);
      if (raw) setSessionCookie(ctx, raw);
      return { success: true };
    }),
});
