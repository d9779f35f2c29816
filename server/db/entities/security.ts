// Sign-in beyond the e-mail link: a user's passkeys (WebAuthn credentials) and recovery codes, the single-use
// challenges of WebAuthn ceremonies, and a company's single sign-on (OpenID Connect) with the e-mail domains it
// covers and the logins in flight (state, nonce and PKCE verifier, checkable by any instance).
import { defineEntity, p } from '@mikro-orm/core';
import { Company, now, User } from './core.ts';

export const PasskeySchema = defineEntity({
  name: 'Passkey',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    // base64url of the credential id (WebAuthn allows up to 1,023 bytes: 1,364 characters).
    credentialId: p.string().length(1400).unique(),
    // base64url of the COSE public key.
    publicKey: p.text(),
    // The authenticator's signature counter (an unsigned 32-bit number; 0 for most passkeys).
    counter: p.bigint('number').default(0),
    transports: p.array<string>().default([]),
    // singleDevice or multiDevice, and whether it is backed up (synced), as the last ceremony said.
    deviceType: p.string().length(20),
    backedUp: p.boolean(),
    name: p.string().length(100),
    createdAt: p.datetime().onCreate(now),
    lastUsedAt: p.datetime().nullable(),
  },
});
export class Passkey extends PasskeySchema.class {}
PasskeySchema.setClass(Passkey);

export const RecoveryCodeSchema = defineEntity({
  name: 'RecoveryCode',
  properties: {
    id: p.integer().primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    // SHA-256 of the code (the codes are long random strings: no salt or slow hash is needed).
    codeHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(now),
    usedAt: p.datetime().nullable(),
  },
});
export class RecoveryCode extends RecoveryCodeSchema.class {}
RecoveryCodeSchema.setClass(RecoveryCode);

export const WebauthnChallengeSchema = defineEntity({
  name: 'WebauthnChallenge',
  properties: {
    // The challenge itself (base64url): a nonce, not a secret; deleted when used.
    challenge: p.string().length(100).primary(),
    // What it is for: register, signIn (passkey alone), secondFactor (after the link) or stepUp.
    purpose: p.string().length(20),
    // The session (its row id) or the signed-out browser (the SHA-256 of its binding cookie) it was given to.
    binding: p.string().length(64).index(),
    user: () => p.manyToOne(User).deleteRule('cascade').nullable(),
    expiresAt: p.datetime().index(),
  },
});
export class WebauthnChallenge extends WebauthnChallengeSchema.class {}
WebauthnChallengeSchema.setClass(WebauthnChallenge);

export const SsoConfigSchema = defineEntity({
  name: 'SsoConfig',
  properties: {
    company: () => p.oneToOne(Company).primary().deleteRule('cascade'),
    issuer: p.string().length(500),
    clientId: p.string().length(300),
    // AES-256-GCM with SSO_SECRET_KEY (iv.tag.ciphertext, base64url): never shown again.
    clientSecret: p.text(),
    // Whether e-mail links still sign in the addresses of the company's domains.
    allowEmailLink: p.boolean().default(true),
    // Whether a verified address of the domains that is not yet a user becomes a member at its first sign-in.
    createUsers: p.boolean().default(false),
    // An amr value (or acr) that says the provider did multi-factor authentication; then no passkey is asked.
    mfaClaim: p.string().length(200).nullable(),
    updatedAt: p.datetime().onCreate(now).onUpdate(now),
  },
});
export class SsoConfig extends SsoConfigSchema.class {}
SsoConfigSchema.setClass(SsoConfig);

export const SsoDomainSchema = defineEntity({
  name: 'SsoDomain',
  properties: {
    company: () => p.manyToOne(Company).primary().deleteRule('cascade'),
    // Lower-case. Several companies may claim one; only one may have it verified (the unique index below).
    domain: p.string().length(253).primary(),
    // The company's own token for this domain: the TXT record `sim-portal-verification=<token>` proves it.
    verificationToken: p.string().length(64),
    // When the TXT record was last found; null: not (or no longer) proved, so not used to sign in.
    verifiedAt: p.datetime().nullable(),
  },
  uniques: [{ name: 'sso_domain_verified_unique', properties: ['domain'], where: { verifiedAt: { $ne: null } } }],
});
export class SsoDomain extends SsoDomainSchema.class {}
SsoDomainSchema.setClass(SsoDomain);

export const SsoLoginSchema = defineEntity({
  name: 'SsoLogin',
  properties: {
    // SHA-256 of the state sent to the provider; the row is deleted when the callback uses it.
    stateHash: p.string().length(64).primary(),
    company: () => p.manyToOne(Company).deleteRule('cascade'),
    // The SHA-256 of the browser's binding cookie: a callback in another browser is refused.
    binding: p.string().length(64),
    codeVerifier: p.string().length(128),
    nonce: p.string().length(128),
    // The session stepping up (a signed-in user confirming with the provider), else null for a sign-in.
    stepUpSession: p.string().length(64).nullable(),
    redirectTo: p.string().length(2000).nullable(),
    expiresAt: p.datetime().index(),
  },
});
export class SsoLogin extends SsoLoginSchema.class {}
SsoLoginSchema.setClass(SsoLogin);
