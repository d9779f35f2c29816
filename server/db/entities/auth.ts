// The login's tables: sessions, one-time login links and the rate limits' counters.
import { defineEntity, p } from '@mikro-orm/core';
import { Company, now, User } from './core.ts';

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
