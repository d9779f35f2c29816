// The audit trail: who changed what, in which company's trail; and the feedback users send.
import { defineEntity, p } from '@mikro-orm/core';
import { AUDIT_KINDS } from '#domain/companies/kinds.ts';
import { Company, now, User } from './core.ts';

export const AuditEventSchema = defineEntity({
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

export const FeedbackSchema = defineEntity({
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
