// The webhook event types (pure, shared by the schemas, the pages and the outbox).
export const WEBHOOK_EVENT_TYPES = [
  'sim.activated',
  'sim.updated',
  'sim.deactivated',
  'sim.paused',
  'sim.resumed',
  'bulk.completed',
  'usage.threshold_reached',
  'sim.silent',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event "Skicka testhändelse" queues for one endpoint (not subscribable). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
