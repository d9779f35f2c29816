// The entities that refer to each other, so they live in one module: a company and its users, the rate plans,
// the SIMs with their daily counts and history, and the API keys a history event may name (Company and User
// point at each other, so do Sim and SimEvent, and SimEvent points at ApiKey). The others, in this folder,
// only point at these. Field names follow the spec (iccid, invoiceLineMark, dataLimit ...).
import { defineEntity, p } from '@mikro-orm/core';

import { INVOICE_INTERVALS } from '#domain/companies/schemas.ts';
import { USER_ROLES } from '#domain/companies/kinds.ts';
import { API_KEY_SCOPES } from '#domain/api-keys/limits.ts';

export const SIM_STATUSES = ['active', 'deactivated'] as const;
export const SIM_EVENT_KINDS = ['activated', 'updated', 'planChanged', 'deactivated', 'paused', 'resumed'] as const;
export type SimEventKind = (typeof SIM_EVENT_KINDS)[number];

/** The default of a created or updated time (onCreate, onUpdate). */
export const now = () => new Date();

export const CompanySchema = defineEntity({
  name: 'Company',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(200),
    customerNumber: p.string().length(50).unique(),
    invoiceNote: p.string().length(200).default(''),
    invoiceInterval: p.enum(INVOICE_INTERVALS).default('monthly'),
    // The portal's own staff (docs/decisions/014): the one company whose users may be super admins.
    isStaff: p.boolean().default(false),
    // Set by the owner: every user of the company must sign in with a passkey (added at the next sign-in).
    requirePasskeys: p.boolean().default(false),
    createdAt: p.datetime().onCreate(now),
    updatedAt: p.datetime().onCreate(now).onUpdate(now),
    users: () => p.oneToMany(User).mappedBy('company'),
  },
  uniques: [{ name: 'company_is_staff_unique', properties: ['isStaff'], where: { isStaff: true } }],
});
export class Company extends CompanySchema.class {}
CompanySchema.setClass(Company);

export const UserSchema = defineEntity({
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

export const RatePlanSchema = defineEntity({
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

export const SimSchema = defineEntity({
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
    // Paused (issue 40, docs/decisions/037): a mark on an active SIM, and the history event that paused it (who).
    pausedAt: p.datetime().nullable(),
    pausedEventId: p.integer().nullable(),
    // Seen by the network at least once (set by the trigger on usage_last_seen's inserts; /sims' filter "never").
    everSeen: p.boolean().default(false),
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
      // The company's paused SIMs in the list's order (a few of many).
      name: 'sim_paused_index',
      expression:
        'create index "sim_paused_index" on "sim" ("company_id", "activated_at" desc, "id" desc) where "status" = \'active\' and "paused_at" is not null',
    },
    {
      // The company's never-seen SIMs in the list's order (/sims' filter "never": only them walked).
      name: 'sim_never_seen_index',
      expression:
        'create index "sim_never_seen_index" on "sim" ("company_id", "activated_at" desc, "id" desc) where "status" = \'active\' and not "ever_seen"',
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
export const SimDailyCountSchema = defineEntity({
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

export const SimEventSchema = defineEntity({
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
    // A change made by a company's rule (issue 40): its id (the rule's name at the time is in `after`).
    ruleId: p.integer().nullable(),
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

// An API key of a company: only the SHA-256 of the key and a short visible prefix are stored.
export const ApiKeySchema = defineEntity({
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
