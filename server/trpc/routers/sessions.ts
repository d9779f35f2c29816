// The sessions a user sees and ends (/security/sessions, /api/sessions), and a super admin's view of any user's
// sessions with ending them and resetting the user's passkeys (a step-up change). The rules: server/auth/session-list.ts.
import { z } from '#domain/zod.ts';
import {
  endedOutput,
  endSessionInput,
  endUserSessionInput,
  resetPasskeysOutput,
  sessionListOutput,
  userSessionsInput,
  userSessionsOutput,
} from '#domain/auth/sessions.ts';
import {
  countPasskeys,
  endOtherSessions,
  endSession,
  ensureUser,
  listSessions,
  resetPasskeys,
} from '#server/auth/session-list.ts';
import { clearSessionCookie } from '#server/auth/sessions.ts';
import { User } from '#server/db/entities.ts';
import { tellPasskeyChange } from '#server/mail/security-mails.ts';
import type { Context } from '#server/trpc/context.ts';
import {
  authedProcedure,
  router,
  superAdminChangeProcedure,
  superAdminProcedure,
  idempotent,
} from '#server/trpc/trpc.ts';

const tags = ['sessions'];
const currentOutput = endedOutput.extend({
  /** The caller's own session was among those ended: the answer clears its cookie. */
  current: z.boolean(),
});

/** The caller's own session ended: the browser's cookie goes too. */
function clearCookieIf(ctx: Context, current: boolean): void {
  if (current) ctx.resHeaders.append('Set-Cookie', clearSessionCookie(ctx.services.config.secureCookies));
}

export const sessionsRouter = router({
  mine: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sessions',
        tags,
        summary:
          "The caller's signed-in sessions, most recently active first (at most 50): browser, address, method, times, this one marked",
      },
    })
    .input(z.object({}).optional())
    .output(sessionListOutput)
    .query(({ ctx }) => listSessions(ctx.em, ctx.session.userId, ctx.session.id)),

  end: authedProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/sessions/end',
        tags,
        summary:
          "End one of the caller's sessions: it is signed out at once, its event streams close (404 for any other id)",
      },
    })
    .use(idempotent)
    .input(endSessionInput)
    .output(currentOutput)
    .mutation(async ({ ctx, input }) => {
      const s = ctx.session;
      const result = await endSession(ctx.services, ctx.em, s, s.userId, input.id);
      clearCookieIf(ctx, result.current);
      return result;
    }),

  endOthers: authedProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/sessions/endOthers',
        tags,
        summary: "End every session of the caller's but this one",
      },
    })
    .use(idempotent)
    .input(z.object({}).optional())
    .output(endedOutput)
    .mutation(({ ctx }) => endOtherSessions(ctx.services, ctx.em, ctx.session)),

  forUser: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/sessions/{userId}',
        tags,
        summary: "A user's signed-in sessions (at most 50, most recently active first) and how many passkeys they have",
      },
    })
    .input(userSessionsInput)
    .output(userSessionsOutput)
    .query(async ({ ctx, input }) => {
      await ensureUser(ctx.em, input.userId);
      const list = await listSessions(ctx.em, input.userId, ctx.session.id);
      return { ...list, userId: input.userId, passkeys: await countPasskeys(ctx.em, input.userId) };
    }),

  endForUser: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/sessions/end',
        tags,
        summary: "End one of a user's sessions (needs a passkey use in the last 10 minutes: 403 with stepUp)",
      },
    })
    .use(idempotent)
    .input(endUserSessionInput)
    .output(currentOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await endSession(ctx.services, ctx.em, ctx.session, input.userId, input.id);
      clearCookieIf(ctx, result.current);
      return result;
    }),

  resetPasskeys: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/resetPasskeys/{userId}',
        tags,
        summary:
          "Remove a user's passkeys and recovery codes and end all their sessions; they add a new passkey at their next sign-in",
      },
    })
    .use(idempotent)
    .input(userSessionsInput)
    .output(resetPasskeysOutput.extend({ current: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const result = await resetPasskeys(ctx.services, ctx.em, ctx.session, input.userId);
      clearCookieIf(ctx, result.current);
      // The user is told of every removed passkey (issue 37), by mail, as when they remove one themselves.
      const user = result.passkeys ? await ctx.em.findOne(User, { id: input.userId }) : null;
      if (user) tellPasskeyChange(ctx.services, user, { kind: 'reset', count: result.passkeys });
      return result;
    }),
});
