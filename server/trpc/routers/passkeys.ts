// The passkey procedures: options and answers of the four WebAuthn ceremonies, recovery codes, the step-up by
// e-mail link of a user without a passkey, and the list on /security. The rules are in server/auth/passkeys.ts
// and step-up-link.ts; here only who may call, and the mail that tells the user of an added or removed passkey. The procedures of a session still
// signing in read `ctx.pending` and refuse anything else; signIn is for a signed-out browser, bound by a cookie.
import { z } from 'zod';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { authenticationResponse, passkeyName, recoveryCode, registrationResponse } from '#domain/auth/passkeys.ts';
import { Forbidden } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import {
  authenticationOptions,
  bindingCookie,
  clearBindingCookie,
  confirmSignIn,
  finishRegistration,
  hashBinding,
  newBrowserBinding,
  registrationOptions,
  removePasskey,
  renewRecoveryCodes,
  securityOverview,
  signInOptions,
  signInWithPasskey,
  signInWithRecoveryCode,
  stepUpWithPasskey,
  stepUpWithRecoveryCode,
} from '#server/auth/passkeys.ts';
import { requestStepUpLink, stepUpWithLink } from '#server/auth/step-up-link.ts';
import { tellPasskeyChange } from '#server/mail/security-mails.ts';
import type { Context } from '#server/trpc/context.ts';
import { authedProcedure, publicProcedure, requireStepUp, router } from '#server/trpc/trpc.ts';
import { setSessionCookie, success } from './auth.ts';

// The options are WebAuthn's JSON, made by the library and handed to the browser's as they are.
const isObject = (v: unknown) => typeof v === 'object' && v !== null;
const creationOptions = z.custom<PublicKeyCredentialCreationOptionsJSON>(isObject);
const requestOptions = z.custom<PublicKeyCredentialRequestOptionsJSON>(isObject);

/** The session that may add a passkey: a full one, or one that must add its first before anything else. */
function registeringSession(ctx: Context) {
  const session = ctx.session ?? (ctx.pending?.stage === 'register' ? ctx.pending : null);
  if (!session || ctx.apiKey) throw new Forbidden(tSecurity.passkeys.notSignedIn);
  return session;
}

/** A session after the e-mail link whose passkey is still asked (stage passkey); nothing else. */
const pendingPasskeyProcedure = publicProcedure.use(({ ctx, next }) => {
  if (ctx.apiKey || ctx.pending?.stage !== 'passkey') throw new Forbidden(tSecurity.passkeys.notSignedIn);
  return next({ ctx: { pending: ctx.pending } });
});

export const passkeysRouter = router({
  overview: authedProcedure
    .input(z.void())
    .output(
      z.object({
        passkeys: z.array(
          z.object({
            id: z.number(),
            name: z.string(),
            createdAt: z.date(),
            lastUsedAt: z.date().nullable(),
            backedUp: z.boolean(),
            deviceType: z.string(),
          }),
        ),
        recoveryCodesLeft: z.number(),
        passkeyRequired: z.boolean(),
      }),
    )
    .query(async ({ ctx }) => ({
      ...(await securityOverview(ctx.em, ctx.session.userId)),
      passkeyRequired: ctx.session.passkeyRequired,
    })),

  registrationOptions: publicProcedure
    .input(z.void())
    .output(creationOptions)
    .mutation(async ({ ctx }) => registrationOptions(ctx.services.config, ctx.em, registeringSession(ctx))),

  /** Adds the passkey; the first one brings the recovery codes (shown once); a registering session is signed in. */
  register: publicProcedure
    .input(z.object({ response: registrationResponse, name: passkeyName.default('') }))
    .output(z.object({ name: z.string(), recoveryCodes: z.array(z.string()).nullable(), signedIn: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const done = await finishRegistration(
        ctx.services.config,
        ctx.em,
        registeringSession(ctx),
        input.response,
        input.name,
        ctx.ip,
      );
      if (done.newSession) setSessionCookie(ctx, done.newSession);
      tellPasskeyChange(ctx.services, registeringSession(ctx), { kind: 'added', name: done.name });
      return { name: done.name, recoveryCodes: done.recoveryCodes, signedIn: !!done.newSession };
    }),

  /** Signing in with a passkey alone: the challenge is bound to this browser by a cookie of its own. */
  signInOptions: publicProcedure
    .input(z.void())
    .output(requestOptions)
    .mutation(async ({ ctx }) => {
      if (ctx.apiKey) throw new Forbidden(tSecurity.passkeys.notSignedIn);
      const binding = newBrowserBinding();
      ctx.resHeaders.append('Set-Cookie', bindingCookie(binding.raw, ctx.services.config.secureCookies));
      return signInOptions(ctx.services.config, ctx.em, binding.hash, ctx.ip);
    }),

  /** `binding`: the browser's binding cookie, as the door read it from the request. */
  signIn: publicProcedure
    .input(z.object({ response: authenticationResponse, binding: z.string().max(100) }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      if (ctx.apiKey) throw new Forbidden(tSecurity.passkeys.notSignedIn);
      const raw = await signInWithPasskey(ctx.services.config, ctx.em, hashBinding(input.binding), input.response, {
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      ctx.resHeaders.append('Set-Cookie', clearBindingCookie(ctx.services.config.secureCookies));
      setSessionCookie(ctx, raw);
      return { success: true };
    }),

  secondFactorOptions: pendingPasskeyProcedure
    .input(z.void())
    .output(requestOptions)
    .mutation(async ({ ctx }) =>
      authenticationOptions(ctx.services.config, ctx.em, 'secondFactor', ctx.pending.id, ctx.pending.userId),
    ),

  secondFactor: pendingPasskeyProcedure
    .input(z.object({ response: authenticationResponse }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      const raw = await confirmSignIn(ctx.services.config, ctx.em, ctx.pending, input.response, ctx.ip);
      setSessionCookie(ctx, raw);
      return { success: true };
    }),

  /** A recovery code instead of the passkey after the e-mail link (works without JS). */
  recoverySignIn: pendingPasskeyProcedure
    .input(z.object({ code: recoveryCode }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      setSessionCookie(ctx, await signInWithRecoveryCode(ctx.em, ctx.pending, input.code, ctx.ip));
      return { success: true };
    }),

  stepUpOptions: authedProcedure
    .input(z.void())
    .output(requestOptions)
    .mutation(async ({ ctx }) =>
      authenticationOptions(ctx.services.config, ctx.em, 'stepUp', ctx.session.id, ctx.session.userId),
    ),

  stepUp: authedProcedure
    .input(z.object({ response: authenticationResponse }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await stepUpWithPasskey(ctx.services.config, ctx.em, ctx.session, input.response);
      return { success: true };
    }),

  recoveryStepUp: authedProcedure
    .input(z.object({ code: recoveryCode }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await stepUpWithRecoveryCode(ctx.em, ctx.session, input.code, ctx.ip);
      return { success: true };
    }),

  /** New recovery codes (step-up): the old ones stop working. */
  renewRecoveryCodes: authedProcedure
    .input(z.void())
    .output(z.object({ recoveryCodes: z.array(z.string()) }))
    .mutation(async ({ ctx }) => {
      requireStepUp(ctx.session);
      return { recoveryCodes: await renewRecoveryCodes(ctx.em, ctx.session) };
    }),

  remove: authedProcedure
    .input(z.object({ id: z.number().int().positive() }))
    .output(z.object({ name: z.string() }))
    .mutation(async ({ ctx, input }) => {
      requireStepUp(ctx.session);
      const name = await removePasskey(ctx.em, ctx.session, input.id);
      tellPasskeyChange(ctx.services, ctx.session, { kind: 'removed', name });
      return { name };
    }),

  /** A user without a passkey: a step-up link to their e-mail, usable in this session only (10 minutes, once). */
  requestStepUpLink: authedProcedure
    .input(z.void())
    .output(success)
    .mutation(async ({ ctx }) => {
      await requestStepUpLink(ctx.services, ctx.em, ctx.session);
      return { success: true };
    }),

  /** The link's token, in the session that asked for it: the session is stepped up for 10 minutes. */
  stepUpWithLink: authedProcedure
    .input(z.object({ token: z.string().max(100) }))
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await stepUpWithLink(ctx.em, ctx.session, input.token);
      return { success: true };
    }),
});
