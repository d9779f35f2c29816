// The data model, as every module imports it: the entities (defined by domain in entities/) and the list
// MikroORM registers (orm.ts). The list's order is the one the schema diff and the migrations were made with.
import {
  ApiKeySchema,
  CompanySchema,
  RatePlanSchema,
  SimDailyCountSchema,
  SimEventSchema,
  SimSchema,
  UserSchema,
} from './entities/core.ts';
import { LoginTokenSchema, RateLimitCounterSchema, SessionSchema } from './entities/auth.ts';
import { AuditEventSchema, FeedbackSchema } from './entities/audit.ts';
import {
  PasskeySchema,
  RecoveryCodeSchema,
  SsoConfigSchema,
  SsoDomainSchema,
  SsoLoginSchema,
  WebauthnChallengeSchema,
} from './entities/security.ts';
import { WebhookDeliverySchema, WebhookEndpointSchema, WebhookEventSchema } from './entities/webhooks.ts';
import { IdempotencyKeySchema } from './entities/idempotency.ts';
import {
  UsageAsideSchema,
  UsageCompanyDaySchema,
  UsageTagDaySchema,
  UsageDaySchema,
  UsageLastSeenSchema,
  UsageMonthSchema,
  UsageRecordSchema,
} from './entities/usage.ts';
import { NetworkKeySchema } from './entities/network.ts';
import { SimTagSchema } from './entities/tags.ts';
import { RuleFiringSchema, RuleRecipientSchema, RuleSchema } from './entities/rules.ts';
import { RuleWatchSchema } from './entities/rule-watch.ts';

export { INVOICE_INTERVALS, type InvoiceInterval } from '#domain/companies/schemas.ts';
export { AUDIT_KINDS, USER_ROLES, type AuditKind, type UserRole } from '#domain/companies/kinds.ts';
export { API_KEY_SCOPES, type ApiKeyScope } from '#domain/api-keys/limits.ts';
export {
  ApiKey,
  Company,
  RatePlan,
  Sim,
  SimDailyCount,
  SimEvent,
  User,
  SIM_EVENT_KINDS,
  SIM_STATUSES,
  type SimEventKind,
} from './entities/core.ts';
export { LoginToken, RateLimitCounter, Session, SESSION_STAGES, type SessionStage } from './entities/auth.ts';
export { Passkey, RecoveryCode, SsoConfig, SsoDomain, SsoLogin, WebauthnChallenge } from './entities/security.ts';
export { AuditEvent, Feedback } from './entities/audit.ts';
export { WEBHOOK_DELIVERY_STATUSES, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './entities/webhooks.ts';
export { IdempotencyKey } from './entities/idempotency.ts';
export { UsageAside, UsageCompanyDay, UsageDay, UsageLastSeen, UsageMonth, UsageRecord } from './entities/usage.ts';
export { NetworkKey } from './entities/network.ts';
export { SimTag } from './entities/tags.ts';
export { Rule, RuleFiring, RuleRecipient } from './entities/rules.ts';
export { RuleWatch } from './entities/rule-watch.ts';

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
  PasskeySchema,
  RecoveryCodeSchema,
  WebauthnChallengeSchema,
  SsoConfigSchema,
  SsoDomainSchema,
  SsoLoginSchema,
  IdempotencyKeySchema,
  UsageRecordSchema,
  UsageDaySchema,
  UsageMonthSchema,
  UsageLastSeenSchema,
  UsageCompanyDaySchema,
  UsageTagDaySchema,
  UsageAsideSchema,
  NetworkKeySchema,
  SimTagSchema,
  RuleSchema,
  RuleRecipientSchema,
  RuleFiringSchema,
  RuleWatchSchema,
];
