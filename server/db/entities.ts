// The data model. Field names follow the spec (iccid, invoiceLineMark, dataLimit ...).
// One file, because the entities refer to each other and are always loaded together.
import { defineEntity, p } from '@mikro-orm/core';

import { INVOICE_INTERVALS } from '../companies/schemas.js';

export { INVOICE_INTERVALS, type InvoiceInterval } from '../companies/schemas.js';
export const SIM_STATUSES = ['active', 'deactivated'] as const;
export const SIM_EVENT_KINDS = ['activated', 'updated', 'planChanged', 'deactivated'] as const;
export type SimEventKind = (typeof SIM_EVENT_KINDS)[number];

const now = () => new Date();

const CompanySchema = defineEntity({
  name: 'Company',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(200),
    customerNumber: p.string().length(50).unique(),
    invoiceNote: p.string().length(200).default(''),
    invoiceInterval: p.enum(INVOICE_INTERVALS).default('monthly'),
    createdAt: p.datetime().onCreate(now),
    updatedAt: p.datetime().onCreate(now).onUpdate(now),
    users: () => p.oneToMany(User).mappedBy('company'),
  },
});
export class Company extends CompanySchema.class {}
CompanySchema.setClass(Company);

const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(200),
    // Stored lower-case, so the unique index is case-insensitive.
    email: p.string().length(254).unique(),
    company: () => p.manyToOne(Company).index(),
    isCompanyOwner: p.boolean().default(false),
    isSuperAdmin: p.boolean().default(false),
    createdAt: p.datetime().onCreate(now),
    lastLoginAt: p.datetime().nullable(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);

const RatePlanSchema = defineEntity({
  name: 'RatePlan',
  properties: {
    id: p.integer().primary(),
    code: p.string().length(50).unique(),
    description: p.string().length(200),
    dataLimit: p.integer(),
    call: p.boolean().default(false),
    sms: p.boolean().default(false),
    roaming: p.boolean().default(false),
    isLegacy: p.boolean().default(false),
  },
});
export class RatePlan extends RatePlanSchema.class {}
RatePlanSchema.setClass(RatePlan);

const SimSchema = defineEntity({
  name: 'Sim',
  properties: {
    id: p.integer().primary(),
    iccid: p.string().length(20),
    company: () => p.manyToOne(Company),
    ratePlan: () => p.manyToOne(RatePlan),
    invoiceLineMark: p.string().length(200).default(''),
    invoiceLineNote: p.string().length(200).default(''),
    status: p.enum(SIM_STATUSES).default('active'),
    activatedAt: p.datetime().onCreate(now),
    deactivatedAt: p.datetime().nullable(),
    activatedBy: () => p.manyToOne(User).nullable(),
    events: () => p.oneToMany(SimEvent).mappedBy('sim'),
  },
  // The list: a company's active SIMs, newest first (keyset of activatedAt, id).
  indexes: [
    {
      name: 'sim_company_status_activated_index',
      expression:
        'create index "sim_company_status_activated_index" on "sim" ("company_id", "status", "activated_at" desc, "id" desc)',
    },
  ],
  // At most one active SIM per ICCID; deactivated ones may repeat.
  uniques: [{ name: 'sim_iccid_active_unique', properties: ['iccid'], where: { status: 'active' } }],
});
export class Sim extends SimSchema.class {}
SimSchema.setClass(Sim);

const SimEventSchema = defineEntity({
  name: 'SimEvent',
  properties: {
    id: p.integer().primary(),
    sim: () => p.manyToOne(Sim).index(),
    kind: p.enum(SIM_EVENT_KINDS),
    // The plan in force after the event: the invoice export reads periods from this.
    ratePlan: () => p.manyToOne(RatePlan),
    by: () => p.manyToOne(User).nullable(),
    at: p.datetime().onCreate(now),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
  },
});
export class SimEvent extends SimEventSchema.class {}
SimEventSchema.setClass(SimEvent);

const FeedbackSchema = defineEntity({
  name: 'Feedback',
  properties: {
    id: p.integer().primary(),
    message: p.text(),
    user: () => p.manyToOne(User).nullable(),
    company: () => p.manyToOne(Company).nullable(),
    createdAt: p.datetime().onCreate(now),
  },
});
export class Feedback extends FeedbackSchema.class {}
FeedbackSchema.setClass(Feedback);

const SessionSchema = defineEntity({
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

const LoginTokenSchema = defineEntity({
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

const AuditEventSchema = defineEntity({
  name: 'AuditEvent',
  properties: {
    id: p.integer().primary(),
    who: () => p.manyToOne(User).nullable(),
    actingCompany: () => p.manyToOne(Company).nullable(),
    action: p.string().length(100),
    targetType: p.string().length(50),
    targetId: p.string().length(50).nullable(),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
    at: p.datetime().onCreate(now).index(),
  },
});
export class AuditEvent extends AuditEventSchema.class {}
AuditEventSchema.setClass(AuditEvent);

const RateLimitCounterSchema = defineEntity({
  name: 'RateLimitCounter',
  properties: {
    key: p.string().length(300).primary(),
    count: p.integer(),
    windowStart: p.datetime(),
  },
});
export class RateLimitCounter extends RateLimitCounterSchema.class {}
RateLimitCounterSchema.setClass(RateLimitCounter);

export const entities = [
  RateLimitCounterSchema,
  CompanySchema,
  UserSchema,
  RatePlanSchema,
  SimSchema,
  SimEventSchema,
  FeedbackSchema,
  SessionSchema,
  LoginTokenSchema,
  AuditEventSchema,
];
