// The login's tables: sessions, one-time login links and the rate limits' counters.
import { defineEntity, p } from '@mikro-orm/core';
import { Company, now, User } from './core.ts';

export const SESSION_STAGES = ['full', 'passkey', 'register'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'app_session',
  properties: {
    // SHA-256 of the random id in the cookie: a leaked table gives no usable cookie.
    id: p.string().length(64).primary(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    actingCompany: () => p.manyToOne(Company).nullable(),
    data: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(now),
    lastSeenAt: p.datetime().onCreate(now),
    expiresAt: p.datetime().index(),
    // full: signed in; passkey: the link was used, the user's passkey (or a recovery code) is still asked;
    // register: a passkey must be added first (a super admin, or a company that requires them). Only a full
    // session is a session to the rest of the portal; the others expire in 10 minutes.
    stage: p.enum(SESSION_STAGES).default('full'),
    // How it was signed in: link, passkey, sso or recovery.
    method: p.string().length(20).default('link'),
    // The last passkey use (or recovery code, or provider MFA) of this session: the step-up of sensitive changes.
    steppedUpAt: p.datetime().nullable(),
    // What the user sees on the security page: the browser as its User-Agent said, and the address.
    userAgent: p.string().length(300).nullable(),
    ip: p.string().length(64).nullable(),
  },
});
export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);

export const LoginTokenSchema = defineEntity({
  name: 'LoginToken',
  properties: {
    id: p.integer().primary(),
    tokenHash: p.string().length(64).unique(),
    email: p.string().length(254),
    createdAt: p.datetime().onCreate(now),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export class LoginToken extends LoginTokenSchema.class {}
LoginTokenSchema.setClass(LoginToken);

export const RateLimitCounterSchema = defineEntity({
  name: 'RateLimitCounter',
  properties: {
    key: p.string().length(300).primary(),
    count: p.integer(),
    windowStart: p.datetime(),
  },
});
export class RateLimitCounter extends RateLimitCounterSchema.class {}
RateLimitCounterSchema.setClass(RateLimitCounter);
