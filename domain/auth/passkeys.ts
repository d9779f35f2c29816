// The inputs of the passkey procedures: a WebAuthn answer as the browser library sends it (checked for shape and
// size here; its contents are verified by the server), a passkey's name and a recovery code. Pure zod.
import { z } from '#domain/zod.ts';

const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);

const credentialBase = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

/** The answer of navigator.credentials.create() as JSON (RegistrationResponseJSON). */
export const registrationResponse = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(20000),
    authenticatorData: b64url(20000).optional(),
    transports: z.array(z.string().max(30)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
});

/** The answer of navigator.credentials.get() as JSON (AuthenticationResponseJSON). */
export const authenticationResponse = z.object({
  ...credentialBase,
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(4000),
    signature: b64url(8000),
    userHandle: b64url(200).optional(),
  }),
});

export const passkeyName = z.string().trim().max(100);

/** What a person types: xxxx-xxxx-xxxx, with or without dashes or spaces. */
export const recoveryCode = z.string().trim().min(1).max(40);

export const CEREMONY_PURPOSES = ['register', 'signIn', 'secondFactor', 'stepUp'] as const;
export type CeremonyPurpose = (typeof CEREMONY_PURPOSES)[number];
