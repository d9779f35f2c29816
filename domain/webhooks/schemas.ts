// Input and output schemas of /api/company/webhooks (pure zod: the pages read their HTML constraints).
import { tWebhooks } from '#domain/texts/webhooks.ts';
import { z } from '#domain/zod.ts';
import { WEBHOOK_EVENT_TYPES } from './events.ts';

const e = tWebhooks.errors;
const id = z.coerce.number({ error: 'Ogiltigt id.' }).int('Ogiltigt id.').positive('Ogiltigt id.');

export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOKS_PER_COMPANY = 10;

const url = z.string({ error: e.url }).trim().min(1, e.url).max(WEBHOOK_URL_MAX);
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: e.event }), { error: e.events })
  .min(1, e.events)
  .max(WEBHOOK_EVENT_TYPES.length);

export const webhookCreateInput = z.object({ url, events });
export const webhookUpdateInput = z.object({ id, url, events, enabled: z.boolean() });
export const webhookIdInput = z.object({ id });
export type WebhookCreateInput = z.infer<typeof webhookCreateInput>;
export type WebhookUpdateInput = z.infer<typeof webhookUpdateInput>;

export const deliveryOutput = z.object({
  id: z.number(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeliveryView = z.infer<typeof deliveryOutput>;

export const endpointOutput = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /** The first failure since the last success (null: healthy). */
  failingSince: z.string().nullable(),
  /** Failing for longer than the retry window (24 h): shown to the owner. */
  failing: z.boolean(),
  lastDeliveries: z.array(deliveryOutput),
});
export type EndpointView = z.infer<typeof endpointOutput>;
