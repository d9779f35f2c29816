// The data model. Field names follow the spec (iccid, invoiceLineMark, dataLimit ...).
// One file, because the entities refer to each other and are always loaded together.
import { defineEntity, p } from '@mikro-orm/core';

import { INVOICE_INTERVALS } from '#domain/companies/schemas.ts';
import { AUDIT_KINDS, USER_ROLES } from '#domain/companies/kinds.ts';
import { API_KEY_SCOPES } from '#domain/api-keys/limits.ts';

export { INVOICE_INTERVALS, type InvoiceInterval } from '#domain/companies/schemas.ts';
export { AUDIT_KINDS, USER_ROLES, type AuditKind, type UserRole } from '#domain/companies/kinds.ts';
export { API_KEY_SCOPES, type ApiKeyScope } from '#domain/api-keys/limits.ts';
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
    // The portal's own staff (docs/decisions/014): the one company whose users may be super admins.
    isStaff: p.boolean().default(false),
    createdAt: p.datetime().onCreate(now),
    updatedAt: p.datetime().onCreate(now).onUpdate(now),
    users: () => p.oneToMany(User).mappedBy('company'),
  },
  uniques: [{ name: 'company_is_staff_unique', properties: ['isStaff'], where: { isStaff: true } }],
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
    // owner, member or viewer; the spec's isCompanyOwner is role = owner.
    role: p.enum(USER_ROLES).default('member'),
    isSuperAdmin: p.boolean().default(false),
    createdAt: p.datetime().onCreate(now),
    lastLoginAt: p.datetime().nullable(),
    // Removed by the company's owner: the row stays for the history it signed, its e-mail is freed.
    removedAt: p.datetime().nullable(),
    // The address an owner gave that already belongs to a user outside the company (docs/decisions/014): shown to
    // the owner as the user's address, while `email` holds a placeholder no login link can reach.
    requestedEmail: p.string().length(254).nullable(),
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
      // Covers what a search filters on, so walking it (or counting up to the cap) never visits the table.
      name: 'sim_list_index',
      expression:
        'create index "sim_list_index" on "sim" ("company_id", "status", "activated_at" desc, "id" desc) include ("iccid", "invoice_line_mark", "invoice_line_note", "rate_plan_id")',
    },
    // The search (pg_trgm): each text column of active SIMs, case-insensitive substrings (docs/decisions/019).
    {
      name: 'sim_iccid_trgm_index',
      expression:
        'create index "sim_iccid_trgm_index" on "sim" using gin ("iccid" gin_trgm_ops) where "status" = \'active\'',
    },
    {
      name: 'sim_mark_trgm_index',
      expression:
        'create index "sim_mark_trgm_index" on "sim" using gin ("invoice_line_mark" gin_trgm_ops) where "status" = \'active\'',
    },
    {
      name: 'sim_note_trgm_index',
      expression:
        'create index "sim_note_trgm_index" on "sim" using gin ("invoice_line_note" gin_trgm_ops) where "status" = \'active\'',
    },
    {
      name: 'sim_company_plan_index',
      expression:
        'create index "sim_company_plan_index" on "sim" ("company_id", "rate_plan_id") where "status" = \'active\'',
    },
  ],
  // At most one active SIM per ICCID; deactivated ones may repeat.
  uniques: [{ name: 'sim_iccid_active_unique', properties: ['iccid'], where: { status: 'active' } }],
  // sim_daily_count's upkeep (their functions: the fleet_scale migration). Named here so the schema diff keeps them.
  triggers: [
    {
      name: 'sim_daily_count_on_insert',
      timing: 'after',
      events: ['insert'],
      forEach: 'statement',
      expression:
        'create trigger "sim_daily_count_on_insert" after insert on "sim" referencing new table as new_rows for each statement execute function "sim_daily_count_insert"()',
    },
    {
      name: 'sim_daily_count_on_update',
      timing: 'after',
      events: ['update'],
      forEach: 'statement',
      expression:
        'create trigger "sim_daily_count_on_update" after update on "sim" referencing old table as old_rows new table as new_rows for each statement execute function "sim_daily_count_apply"()',
    },
    {
      name: 'sim_daily_count_on_delete',
      timing: 'after',
      events: ['delete'],
      forEach: 'statement',
      expression:
        'create trigger "sim_daily_count_on_delete" after delete on "sim" referencing old table as old_rows for each statement execute function "sim_daily_count_delete"()',
    },
  ],
});
export class Sim extends SimSchema.class {}
SimSchema.setClass(Sim);

// A company's active SIMs per UTC day of activation, kept by statement triggers on sim (the fleet_scale
// migration): the list's exact total, and where a deep page starts, without counting the SIMs themselves.
const SimDailyCountSchema = defineEntity({
  name: 'SimDailyCount',
  tableName: 'sim_daily_count',
  properties: {
    companyId: p.integer().primary(),
    day: p.date().primary(),
    n: p.integer().default(0),
  },
});
export class SimDailyCount extends SimDailyCountSchema.class {}
SimDailyCountSchema.setClass(SimDailyCount);

const SimEventSchema = defineEntity({
  name: 'SimEvent',
  properties: {
    id: p.integer().primary(),
    sim: () => p.manyToOne(Sim),
    kind: p.enum(SIM_EVENT_KINDS),
    // The plan in force after the event: the invoice export reads periods from this.
    ratePlan: () => p.manyToOne(RatePlan),
    by: () => p.manyToOne(User).nullable(),
    // A change made with an API key: the history names it "API-nyckel <name>".
    apiKey: () => p.manyToOne(ApiKey).nullable(),
    at: p.datetime().onCreate(now),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
  },
  // A SIM's history, newest first, a page at a time (keyset on at, id); it serves the foreign key too.
  indexes: [
    {
      name: 'sim_event_sim_at_index',
      expression: 'create index "sim_event_sim_at_index" on "sim_event" ("sim_id", "at" desc, "id" desc)',
    },
  ],
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
    // The company whose trail the row belongs to (/company/activity), and what it is about.
    company: () => p.manyToOne(Company).nullable(),
    kind: p.enum(AUDIT_KINDS).nullable(),
    action: p.string().length(100),
    targetType: p.string().length(50),
    targetId: p.string().length(50).nullable(),
    before: p.json<Record<string, unknown>>().nullable(),
    after: p.json<Record<string, unknown>>().nullable(),
    at: p.datetime().onCreate(now).index(),
  },
  // A company's trail, newest first (keyset on id); of one kind, in the company's or in every company's.
  indexes: [
    {
      name: 'audit_event_company_id_index',
      expression: 'create index "audit_event_company_id_index" on "audit_event" ("company_id", "id" desc)',
    },
    {
      name: 'audit_event_company_kind_index',
      expression: 'create index "audit_event_company_kind_index" on "audit_event" ("company_id", "kind", "id" desc)',
    },
    {
      name: 'audit_event_kind_index',
      expression: 'create index "audit_event_kind_index" on "audit_event" ("kind", "id" desc)',
    },
  ],
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

// Webhooks: a company's endpoints, the outbox of events (written in the change's transaction, only
// when an enabled endpoint of the company subscribes to the type) and one delivery per event and endpoint.
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  properties: {
    id: p.integer().primary(),
    company: () => p.manyToOne(Company).deleteRule('cascade').index(),
    url: p.string().length(2000),
    events: p.array<string>(),
    // Kept so deliveries can be signed; shown only when created or rotated.
    secret: p.string().length(100),
    enabled: p.boolean().default(true),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(now),
    // The first failed attempt since the last success (null: healthy).
    failingSince: p.datetime().nullable(),
    // After a rotation the old secret signs too, until previousSecretUntil (docs/decisions/017).
    previousSecret: p.string().length(100).nullable(),
    previousSecretUntil: p.datetime().nullable(),
    // Fair delivery (server/webhooks/deliver.ts): the lease of the instance serving it, when it was last
    // served (round-robin), its failed attempts in a row and when it may be tried again (backoff as a whole).
    busyUntil: p.datetime().nullable(),
    servedAt: p.datetime().nullable(),
    failuresInRow: p.integer().default(0),
    resumeAt: p.datetime().nullable(),
  },
});
export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);

const WebhookEventSchema = defineEntity({
  name: 'WebhookEvent',
  properties: {
    // Stable for de-duplication by the receiver: the same id on every attempt.
    id: p.uuid().primary(),
    company: () => p.manyToOne(Company).deleteRule('cascade').index(),
    type: p.string().length(50),
    createdAt: p.datetime().defaultRaw('now()'),
    data: p.json<Record<string, unknown>>(),
  },
});
export class WebhookEvent extends WebhookEventSchema.class {}
WebhookEventSchema.setClass(WebhookEvent);

const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  properties: {
    id: p.integer().primary(),
    event: () => p.manyToOne(WebhookEvent).deleteRule('cascade').index(),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    status: p.enum(WEBHOOK_DELIVERY_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    // Due time; while an attempt runs, its lease (a crashed instance's claim is retried after it).
    nextAttemptAt: p.datetime().defaultRaw('now()'),
    lastAttemptAt: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    // Our own short text (timeout, refused address ...), never the peer's answer.
    lastError: p.string().length(200).nullable(),
    deliveredAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'webhook_delivery_endpoint_due_index',
      expression:
        'create index "webhook_delivery_endpoint_due_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at") where "status" = \'pending\'',
    },
    {
      name: 'webhook_delivery_endpoint_index',
      expression: 'create index "webhook_delivery_endpoint_index" on "webhook_delivery" ("endpoint_id", "id" desc)',
    },
  ],
  uniques: [{ name: 'webhook_delivery_event_endpoint_unique', properties: ['event', 'endpoint'] }],
});
export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);

// An API key of a company: only the SHA-256 of the key and a short visible prefix are stored.
const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  properties: {
    id: p.integer().primary(),
    company: () => p.manyToOne(Company).index(),
    name: p.string().length(100),
    scope: p.enum(API_KEY_SCOPES),
    prefix: p.string().length(20),
    hash: p.string().length(64).unique(),
    createdBy: () => p.manyToOne(User).nullable(),
    createdAt: p.datetime().onCreate(now),
    lastUsedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);

export const entities = [
  RateLimitCounterSchema,
  CompanySchema,
  UserSchema,
  RatePlanSchema,
  SimSchema,
  SimDailyCountSchema,
  SimEventSchema,
  FeedbackSchema,
  SessionSchema,
  LoginTokenSchema,
  AuditEventSchema,
  WebhookEndpointSchema,
  WebhookEventSchema,
  WebhookDeliverySchema,
  ApiKeySchema,
];
