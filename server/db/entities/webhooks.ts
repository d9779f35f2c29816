// Webhooks: a company's endpoints, the outbox of events (written in the change's transaction, only when an
// enabled endpoint of the company subscribes to the type) and one delivery per event and endpoint.
import { defineEntity, p } from '@mikro-orm/core';
import { Company, now, User } from './core.ts';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookEndpointSchema = defineEntity({
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

export const WebhookEventSchema = defineEntity({
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

export const WebhookDeliverySchema = defineEntity({
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
        'create index "webhook_delivery_endpoint_due_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at", "id") where "status" = \'pending\'',
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
