// The counters the services keep where things happen (login links, bulk runs, webhook deliveries), in one registry
// per process. Services import them from here, never from server/http/: /metrics (server/http/metrics.ts) merges
// this registry with its own HTTP ones when it is scraped.
import client from 'prom-client';

/** Counted where it happens (server/auth/login.ts, server/sims/bulk.ts, server/webhooks/deliver.ts): one set per process. */
export const shared = new client.Registry();

export const loginLinks = new client.Counter({
  name: 'sim_portal_login_links_total',
  help: 'Login link requests by outcome: sent (a mail went out), refused (rate limit: ip or address), failed (mail error)',
  labelNames: ['outcome', 'reason'] as const,
  registers: [shared],
});

export const bulkRuns = new client.Counter({
  name: 'sim_portal_bulk_runs_total',
  help: 'Bulk activations and deactivations run (one per submitted list)',
  labelNames: ['kind'] as const,
  registers: [shared],
});

export const webhookDelivered = new client.Counter({
  name: 'sim_portal_webhook_deliveries_delivered_total',
  help: 'Webhook deliveries this instance delivered (answered 2xx)',
  registers: [shared],
});

export const webhookAttemptsFailed = new client.Counter({
  name: 'sim_portal_webhook_attempts_failed_total',
  help: 'Webhook delivery attempts by this instance that failed (an answer other than 2xx, a timeout, a refused or failed connection)',
  registers: [shared],
});

export const webhookDeliveriesFailed = new client.Counter({
  name: 'sim_portal_webhook_deliveries_failed_total',
  help: 'Webhook deliveries this instance gave up on (marked failed: still failing past WEBHOOK_RETRY_FOR_MS)',
  registers: [shared],
});

export const poolRefusals = new client.Counter({
  name: 'sim_portal_db_pool_refusals_total',
  help: 'Requests refused a pooled connection (503): at once while the queue is stalled or full, or after waiting QUEUE_WAIT_MS',
  labelNames: ['reason'] as const,
  registers: [shared],
});
