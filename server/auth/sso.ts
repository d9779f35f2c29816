// Long: the provider settings, the domains and the sign-in share the discovery and the login in flight.
// Single sign-on by OpenID Connect, per company: its provider's settings (the client secret encrypted at rest,
// never shown again), the addresses it signs in (the company's domains), and the sign-in itself: the
// authorization code flow with PKCE (S256), state and nonce, the login in flight stored server-side and bound to
// the browser by a cookie, consumed once by the callback. openid-client checks the ID token (issuer, audience,
// nonce, signature, times); the rules after it are ours: a verified address, a user of THIS company, the stage.
// Long on purpose: settings, start and callback share the login in flight and its checks, read in one place.
import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { tSecurity } from '#domain/texts/security.ts';
import { Invalid, NotFound } from '#domain/errors.ts';
import { splitDomains, type SsoSettings } from '#domain/sso/schemas.ts';
import { ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { normalizeEmail } from '#server/companies/email.ts';
import {
  Company,
  Passkey,
  Session,
  SsoConfig,
  SsoDomain,
  SsoLogin,
  User,
  type SessionStage,
} from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import type { Services } from '#server/services.ts';
import { recordSecurityEvent } from './security-audit.ts';
import { assertDomainsAllowed, checkSsoDomains, replaceDomains } from './sso-domains.ts';
import { createSession, markSteppedUp } from './sessions.ts';
import {
  authorizationUrl,
  errorSummary,
  forgetProvider,
  isMisconfigured,
  isUnreachable,
  providerConfig,
  rememberJwks,
} from './sso-connection.ts';
import { encryptSecret, SsoKeyMissing } from './sso-secret.ts';

export const SSO_CALLBACK_PATH = '/auth/sso/callback';
/** A login in flight (the provider's page, the user typing there) may take this long. */
export const SSO_LOGIN_TTL_MS = 10 * 60 * 1000;
export const SSO_PROBLEMS = [
  'unavailable',
  'misconfigured',
  'invalid',
  'denied',
  'unverified',
  'noAccount',
  'tooMany',
] as const;
export type SsoProblem = (typeof SSO_PROBLEMS)[number];
/** Sign-ins started from one client address (each stores a login in flight for 10 minutes). */
export const SSO_START_LIMIT = { max: 100, windowMs: 15 * 60 * 1000 };

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// ---------------------------------------------------------------------------------------------------------------
// The browser binding cookie: the callback must come back to the browser that started the login.

export function bindingCookieName(secure: boolean): string {
  return secure ? '__Host-sim_sso' : 'sim_sso';
}

export function bindingCookie(raw: string, secure: boolean): string {
  // Lax: the provider's redirect back is a top-level GET navigation from its site, which Lax lets through.
  const parts = [`${bindingCookieName(secure)}=${raw}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  parts.push(`Max-Age=${raw ? SSO_LOGIN_TTL_MS / 1000 : 0}`);
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function readBindingCookie(cookieHeader: string | null | undefined, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const name = bindingCookieName(secure);
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{32,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

export function newBinding(): string {
  return randomBytes(32).toString('base64url');
}

// ---------------------------------------------------------------------------------------------------------------
// Settings

const domainOf = (email: string) => normalizeEmail(email).split('@').pop() ?? '';

export async function ssoSettings(services: Services, em: Em, companyId: number): Promise<SsoSettings> {
  const company = await em.findOne(Company, { id: companyId });
  if (!company) throw new NotFound('Företaget finns inte.');
  const sso = await em.findOne(SsoConfig, { company: companyId });
  const domains = await em.find(SsoDomain, { company: companyId }, { orderBy: { domain: 'asc' } });
  return {
    companyId,
    companyName: company.name,
    requirePasskeys: company.requirePasskeys,
    sso: sso
      ? {
          issuer: sso.issuer,
          clientId: sso.clientId,
          hasClientSecret: sso.clientSecret !== '',
          domains: domains.map((d) => ({
            domain: d.domain,
            verified: d.verifiedAt !== null,
            txtName: ssoTxtName(d.domain),
            txtValue: ssoTxtValue(d.verificationToken),
          })),
          allowEmailLink: sso.allowEmailLink,
          createUsers: sso.createUsers,
          mfaClaim: sso.mfaClaim ?? null,
        }
      : null,
    callbackUrl: new URL(SSO_CALLBACK_PATH, services.config.appUrl + '/').toString(),
  };
}

export type SsoSave = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string[];
  allowEmailLink: boolean;
  createUsers: boolean;
  mfaClaim: string | null;
};
export type SsoActor = { userId: number; actingCompanyId: number | null };

/** Saves the company's provider and domains (replacing the old ones) in one transaction; audit ssoConfigured. */
export async function saveSso(
  services: Services,
  em: Em,
  actor: SsoActor,
  companyId: number,
  input: SsoSave,
): Promise<void> {
  const e = tSecurity.sso.errors;
  const domains = splitDomains(input.domains.join('\n'));
  await em.transactional(async (tx) => {
    const company = await tx.findOne(Company, { id: companyId });
    if (!company) throw new NotFound('Företaget finns inte.');
    await assertDomainsAllowed(tx, companyId, domains);
    let sso = await tx.findOne(SsoConfig, { company: companyId });
    const secret = input.clientSecret.trim();
    if (!secret && !sso) throw Invalid.field('clientSecret', e.clientSecret);
    let encrypted = sso?.clientSecret ?? '';
    if (secret) {
      try {
        encrypted = encryptSecret(secret, services.config.sso.secretKey);
      } catch (err) {
        if (err instanceof SsoKeyMissing) throw Invalid.field('clientSecret', e.noKey);
        throw err;
      }
    }
    const fields = {
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecret: encrypted,
      allowEmailLink: input.allowEmailLink,
      createUsers: input.createUsers,
      mfaClaim: input.mfaClaim,
    };
    if (sso) Object.assign(sso, fields);
    else sso = tx.create(SsoConfig, { company, ...fields });
    await replaceDomains(tx, company, domains);
    recordSecurityEvent(tx, {
      action: 'ssoConfigured',
      by: actor,
      about: { userId: null, companyId },
      details: { issuer: input.issuer, domains },
    });
  });
  // Each domain's proof is checked again on every save: one whose TXT record is gone stops signing in.
  await checkSsoDomains(services, em, actor, companyId);
  forgetProvider(input.issuer);
}

export async function removeSso(em: Em, actor: SsoActor, companyId: number): Promise<void> {
  await em.transactional(async (tx) => {
    const sso = await tx.findOne(SsoConfig, { company: companyId });
    if (!sso) return;
    await tx.nativeDelete(SsoDomain, { company: companyId });
    await tx.nativeDelete(SsoLogin, { company: companyId });
    tx.remove(sso);
    recordSecurityEvent(tx, {
      action: 'ssoRemoved',
      by: actor,
      about: { userId: null, companyId },
      details: { issuer: sso.issuer },
    });
  });
}

export async function setRequirePasskeys(em: Em, actor: SsoActor, companyId: number, value: boolean): Promise<void> {
  await em.transactional(async (tx) => {
    const company = await tx.findOne(Company, { id: companyId });
    if (!company) throw new NotFound('Företaget finns inte.');
    if (company.requirePasskeys === value) return;
    company.requirePasskeys = value;
    recordSecurityEvent(tx, {
      action: value ? 'passkeysRequired' : 'passkeysNotRequired',
      by: actor,
      about: { userId: null, companyId },
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Starting a sign-in (or a step-up)

export type SsoStart = { url: string } | { problem: SsoProblem };

/**
 * The provider's authorization URL for this company, with the login in flight stored (10 minutes) and bound to
 * the browser cookie `binding`. `stepUpSession` (the session's row id): a signed-in user confirming again.
 */
export async function startSso(
  services: Services,
  em: Em,
  input: {
    companyId: number;
    binding: string;
    redirectTo: string | null;
    loginHint?: string | null;
    stepUpSession?: string | null;
  },
): Promise<SsoStart> {
  const sso = await em.findOne(SsoConfig, { company: input.companyId });
  if (!sso) return { problem: 'invalid' };
  let config: oidc.Configuration;
  try {
    config = await providerConfig(services, sso);
  } catch (err) {
    services.log.warn({ companyId: input.companyId, ...errorSummary(err) }, 'sso: provider discovery failed');
    return { problem: isMisconfigured(err) ? 'misconfigured' : 'unavailable' };
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const params: Record<string, string> = {
    redirect_uri: new URL(SSO_CALLBACK_PATH, services.config.appUrl + '/').toString(),
    scope: 'openid email profile',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  if (input.loginHint) params.login_hint = input.loginHint;
  // A step-up asks the provider to authenticate the user again, not to reuse its own session.
  if (input.stepUpSession) {
    params.prompt = 'login';
    params.max_age = '0';
  }
  let url: URL;
  try {
    url = authorizationUrl(config, params);
  } catch (err) {
    services.log.warn({ companyId: input.companyId, ...errorSummary(err) }, 'sso: provider unusable');
    return { problem: 'misconfigured' };
  }
  await em.fork().transactional(async (tx) => {
    // Logins in flight that were never finished go with the next start (the purge would, but later).
    await tx.nativeDelete(SsoLogin, { expiresAt: { $lt: new Date() } });
    tx.create(SsoLogin, {
      stateHash: sha256(state),
      company: tx.getReference(Company, input.companyId),
      binding: sha256(input.binding),
      codeVerifier,
      nonce,
      stepUpSession: input.stepUpSession ?? null,
      redirectTo: input.redirectTo?.slice(0, 2000) ?? null,
      expiresAt: new Date(Date.now() + SSO_LOGIN_TTL_MS),
    });
  });
  return { url: url.toString() };
}

/**
 * Whether `url` is the authorization request of a login this browser has in flight: the company's provider's
 * authorization endpoint, our client and callback, and the state of a live login bound to `binding`. The page
 * that hands a browser without JavaScript on to its provider checks it, so it sends nobody anywhere else.
 */
export async function isOwnAuthorizationUrl(
  services: Services,
  em: Em,
  url: string,
  binding: string | null,
): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const state = target.searchParams.get('state');
  if (!state || !binding) return false;
  const login = await em.findOne(SsoLogin, { stateHash: sha256(state) });
  if (!login || login.binding !== sha256(binding) || login.expiresAt.getTime() <= Date.now()) return false;
  const sso = await em.findOne(SsoConfig, { company: login.company.id });
  if (!sso) return false;
  const callback = new URL(SSO_CALLBACK_PATH, services.config.appUrl + '/').toString();
  if (target.searchParams.get('client_id') !== sso.clientId || target.searchParams.get('redirect_uri') !== callback)
    return false;
  try {
    const endpoint = (await providerConfig(services, sso)).serverMetadata().authorization_endpoint;
    if (!endpoint) return false;
    const expected = new URL(endpoint);
    return target.origin === expected.origin && target.pathname === expected.pathname;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The callback

export type SsoFinish =
  | { ok: true; sessionId: string | null; redirectTo: string | null; stage: SessionStage; stepUp: boolean }
  | { ok: false; problem: SsoProblem };

/** Whether the ID token says the provider did the multi-factor authentication the company names. */
export function mfaSatisfied(
  claims: { readonly [claim: string]: unknown },
  mfaClaim: string | null | undefined,
): boolean {
  if (!mfaClaim) return false;
  if (Array.isArray(claims.amr) && claims.amr.includes(mfaClaim)) return true;
  return claims.acr === mfaClaim;
}

async function wasRemoved(em: Em, companyId: number, email: string): Promise<boolean> {
  const rows = await em.execute<Array<{ one: number }>>(
    `select 1 as one from audit_event where company_id = ? and action = 'removeUser' and before->>'email' = ? limit 1`,
    [companyId, email],
  );
  return rows.length > 0;
}

/**
 * Finishes a sign-in from the provider's redirect: `search` is the callback's query, `binding` the browser's
 * cookie. Consumes the login in flight once, whatever follows; on any refusal no session is made.
 */
export async function finishSso(
  services: Services,
  search: string,
  binding: string | null,
  browser: { ip: string; userAgent: string },
): Promise<SsoFinish> {
  const { log } = services;
  const query = new URLSearchParams(search);
  const state = query.get('state');
  if (!state) return { ok: false, problem: 'invalid' };
  // Consumed first, in its own transaction: of two callbacks with one state only one finds the row, and no
  // transaction stays open while the provider is asked (a slow provider must not hold a database connection).
  const login = await services.orm.em.fork().transactional(async (tx) => {
    const row = await tx.findOne(SsoLogin, { stateHash: sha256(state) });
    if (!row) return null;
    const deleted = await tx.nativeDelete(SsoLogin, { stateHash: row.stateHash });
    return deleted === 1 ? row : null;
  });
  if (!login) return { ok: false, problem: 'invalid' };
  if (!binding || sha256(binding) !== login.binding) {
    log.warn({ companyId: login.company.id }, 'sso: callback without the browser binding of its start');
    return { ok: false, problem: 'invalid' };
  }
  if (login.expiresAt.getTime() <= Date.now()) return { ok: false, problem: 'invalid' };
  if (query.get('error')) {
    log.info({ companyId: login.company.id, error: query.get('error')?.slice(0, 100) }, 'sso: provider refused');
    return { ok: false, problem: query.get('error') === 'access_denied' ? 'denied' : 'invalid' };
  }
  const em = services.orm.em.fork();
  const sso = await em.findOne(SsoConfig, { company: login.company.id });
  if (!sso) return { ok: false, problem: 'invalid' };
  const callbackUrl = new URL(SSO_CALLBACK_PATH, services.config.appUrl + '/');
  let claims: oidc.IDToken;
  try {
    const config = await providerConfig(services, sso);
    const current = new URL(callbackUrl);
    current.search = query.toString();
    const tokens = await oidc.authorizationCodeGrant(
      config,
      current,
      {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
        // A step-up asked for a fresh authentication (max_age=0): the ID token's auth_time must say so.
        ...(login.stepUpSession ? { maxAge: 0 } : {}),
      },
      { redirect_uri: callbackUrl.toString() },
    );
    rememberJwks(sso.issuer, config);
    const idClaims = tokens.claims();
    if (!idClaims) return { ok: false, problem: 'invalid' };
    claims = idClaims;
  } catch (err) {
    log.warn({ companyId: login.company.id, ...errorSummary(err) }, 'sso: sign-in not completed');
    return {
      ok: false,
      problem: isMisconfigured(err) ? 'misconfigured' : isUnreachable(err) ? 'unavailable' : 'invalid',
    };
  }
  if (typeof claims.email !== 'string' || !claims.email.includes('@')) return { ok: false, problem: 'unverified' };
  if (claims.email_verified !== true) return { ok: false, problem: 'unverified' };
  const email = normalizeEmail(claims.email);
  const companyId = login.company.id;
  const mfa = mfaSatisfied(claims, sso.mfaClaim);

  if (login.stepUpSession) {
    // A signed-in user confirming: the provider must have signed in that same user, with its MFA.
    const row = await em.findOne(User, { email }, { populate: ['company'] });
    const session = await em.findOne(Session, { id: login.stepUpSession }, { populate: ['user'] });
    if (!row || !session || session.user.id !== row.id || row.company.id !== companyId || !mfa)
      return { ok: false, problem: 'invalid' };
    await markSteppedUp(em, session.id);
    return { ok: true, sessionId: null, redirectTo: login.redirectTo ?? null, stage: 'full', stepUp: true };
  }

  const domains = (await em.find(SsoDomain, { company: companyId, verifiedAt: { $ne: null } })).map((d) => d.domain);
  // The provider speaks for the company's own domains only, and signs in only the company's own users: an
  // address of another company never signs in through this one's provider, even in the same domain.
  if (!domains.includes(domainOf(email))) return { ok: false, problem: 'noAccount' };
  return em.transactional(async (tx) => {
    const now = new Date();
    let user = await tx.findOne(User, { email }, { populate: ['company'] });
    let created = false;
    if (user && (user.company.id !== companyId || user.removedAt)) return { ok: false, problem: 'noAccount' } as const;
    if (!user) {
      if (!sso.createUsers || (await wasRemoved(tx, companyId, email)))
        return { ok: false, problem: 'noAccount' } as const;
      const name =
        typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : (email.split('@')[0] ?? email);
      user = tx.create(User, {
        email,
        name: name.slice(0, 200),
        company: tx.getReference(Company, companyId),
        role: 'member',
        isSuperAdmin: false,
      });
      await tx.flush();
      user = await tx.findOneOrFail(User, { id: user.id }, { populate: ['company'] });
      created = true;
    }
    const stage: SessionStage = mfa
      ? 'full'
      : (await tx.count(Passkey, { user: user.id }))
        ? 'passkey'
        : user.isSuperAdmin || user.company.requirePasskeys
          ? 'register'
          : 'full';
    user.lastLoginAt = now;
    if (stage === 'full')
      recordSecurityEvent(tx, {
        action: 'signIn',
        by: null,
        about: { userId: user.id, companyId },
        details: { method: 'sso', ip: browser.ip, ...(mfa ? { mfa: true } : {}), ...(created ? { created } : {}) },
      });
    await tx.flush();
    const sessionId = await createSession(tx, user.id, {
      now,
      stage,
      method: 'sso',
      steppedUpAt: mfa ? now : null,
      ...browser,
    });
    return { ok: true, sessionId, redirectTo: login.redirectTo ?? null, stage, stepUp: false } as const;
  });
}
