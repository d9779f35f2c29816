// A company's webhook endpoints: register (the secret is answered once), edit, enable/disable,
// rotate the secret, delete, queue a test event, and list with their last deliveries. Every change is in
// the company's trail (kind webhook), never with the secret.
import { randomBytes, randomUUID } from 'node:crypto';
import { tWebhooks } from '#domain/texts/webhooks.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { Company, User, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { Conflict, Invalid, NotFound } from '#domain/errors.ts';
import { SECRET_OVERLAP_MS } from './deliver.ts';
import { WEBHOOK_TEST_EVENT } from '#domain/webhooks/events.ts';
import {
  WEBHOOKS_PER_COMPANY,
  type DeliveryView,
  type EndpointView,
  type WebhookCreateInput,
  type WebhookUpdateInput,
} from '#domain/webhooks/schemas.ts';
import { targetProblem, type Resolver, type TargetPolicy } from '#server/net/target-policy.ts';

export type WebhookActor = Actor & { companyId: number };
export type WebhookOpts = { policy: TargetPolicy; retryForMs: number; resolve?: Resolver };

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

async function checkUrl(url: string, opts: WebhookOpts): Promise<void> {
  const problem = await targetProblem(url, opts.policy, opts.resolve);
  if (problem) throw Invalid.field('url', tWebhooks.errors[problem]);
}

function audit(
  tx: Em,
  actor: WebhookActor,
  action: string,
  ep: WebhookEndpoint,
  before: Record<string, unknown> | null,
) {
  recordAudit(tx, actor, {
    action,
    kind: 'webhook',
    companyId: actor.companyId,
    targetType: 'WebhookEndpoint',
    targetId: ep.id,
    before,
    after: { url: ep.url, events: [...ep.events], enabled: ep.enabled },
  });
}

async function own(em: Em, companyId: number, id: number): Promise<WebhookEndpoint> {
  const ep = await em.findOne(WebhookEndpoint, { id, company: companyId });
  if (!ep) throw new NotFound(tWebhooks.errors.notFound);
  return ep;
}

export async function createEndpoint(
  em: Em,
  actor: WebhookActor,
  input: WebhookCreateInput,
  opts: WebhookOpts,
): Promise<{ id: number; secret: string }> {
  await checkUrl(input.url, opts);
  return em.transactional(async (tx) => {
    if ((await tx.count(WebhookEndpoint, { company: actor.companyId })) >= WEBHOOKS_PER_COMPANY)
      throw new Conflict(tWebhooks.errors.tooMany(WEBHOOKS_PER_COMPANY), 'url');
    const secret = newSecret();
    const ep = tx.create(WebhookEndpoint, {
      company: tx.getReference(Company, actor.companyId),
      url: input.url,
      events: [...new Set(input.events)],
      secret,
      enabled: true,
      createdBy: actor.userId === null ? null : tx.getReference(User, actor.userId),
      createdAt: new Date(),
      failingSince: null,
    });
    await tx.flush();
    audit(tx, actor, 'webhookCreated', ep, null);
    await tx.flush();
    return { id: ep.id, secret };
  });
}

export async function updateEndpoint(
  em: Em,
  actor: WebhookActor,
  input: WebhookUpdateInput,
  opts: WebhookOpts,
): Promise<void> {
  await checkUrl(input.url, opts);
  await em.transactional(async (tx) => {
    const ep = await own(tx, actor.companyId, input.id);
    const before = { url: ep.url, events: [...ep.events], enabled: ep.enabled };
    ep.url = input.url;
    ep.events = [...new Set(input.events)];
    ep.enabled = input.enabled;
    if (input.enabled && !before.enabled) {
      ep.failingSince = null;
      ep.failuresInRow = 0;
      ep.resumeAt = null;
    }
    audit(tx, actor, 'webhookUpdated', ep, before);
    await tx.flush();
  });
}

export async function deleteEndpoint(em: Em, actor: WebhookActor, id: number): Promise<void> {
  await em.transactional(async (tx) => {
    const ep = await own(tx, actor.companyId, id);
    audit(tx, actor, 'webhookDeleted', ep, null);
    await tx.nativeDelete(WebhookEndpoint, { id: ep.id });
    await tx.flush();
  });
}

/**
 * A new secret. The one it replaces keeps signing beside it for SECRET_OVERLAP_MS (every delivery carries a v1
 * for each), so the receiver can switch without losing a delivery; a second rotation drops the oldest.
 */
export async function rotateSecret(
  em: Em,
  actor: WebhookActor,
  id: number,
): Promise<{ secret: string; previousSecretValidUntil: string }> {
  return em.transactional(async (tx) => {
    const ep = await own(tx, actor.companyId, id);
    const until = new Date(Date.now() + SECRET_OVERLAP_MS);
    ep.previousSecret = ep.secret;
    ep.previousSecretUntil = until;
    ep.secret = newSecret();
    audit(tx, actor, 'webhookRotated', ep, null);
    await tx.flush();
    return { secret: ep.secret, previousSecretValidUntil: until.toISOString() };
  });
}

/** Queues a `webhook.test` event for this one endpoint (delivered as any other). */
export async function queueTest(em: Em, actor: WebhookActor, id: number): Promise<{ eventId: string }> {
  return em.transactional(async (tx) => {
    const ep = await own(tx, actor.companyId, id);
    if (!ep.enabled) throw new Conflict(tWebhooks.errors.disabledTest);
    // The owner asks for an attempt now: an endpoint backing off after failures is tried at once.
    ep.resumeAt = null;
    const event = tx.create(WebhookEvent, {
      id: randomUUID(),
      company: tx.getReference(Company, actor.companyId),
      type: WEBHOOK_TEST_EVENT,
      createdAt: new Date(),
      data: { endpointId: ep.id, message: 'Testhändelse från SIM-portalen' },
    });
    tx.create(WebhookDelivery, { event, endpoint: ep, status: 'pending', attempts: 0, nextAttemptAt: new Date() });
    audit(tx, actor, 'webhookTested', ep, null);
    await tx.flush();
    return { eventId: event.id };
  });
}

type DeliveryRow = {
  id: number;
  endpoint_id: number;
  event_id: string;
  type: string;
  status: DeliveryView['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | string | null;
  delivered_at: Date | string | null;
  created_at: Date | string;
};
function iso(d: Date | string): string;
function iso(d: Date | string | null): string | null;
function iso(d: Date | string | null) {
  return d === null ? null : (d instanceof Date ? d : new Date(d)).toISOString();
}
const deliveryView = (r: DeliveryRow): DeliveryView => ({
  id: r.id,
  eventId: r.event_id,
  type: r.type,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  lastAttemptAt: iso(r.last_attempt_at),
  deliveredAt: iso(r.delivered_at),
  createdAt: iso(r.created_at),
});
const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, e.type, d.status, d.attempts, d.last_status_code, d.last_error,
  d.last_attempt_at, d.delivered_at, e.created_at`;

/** An endpoint's deliveries, newest first (at most `limit`). */
export async function listDeliveries(em: Em, companyId: number, id: number, limit = 50): Promise<DeliveryView[]> {
  await own(em, companyId, id);
  const rows = await em.execute<DeliveryRow[]>(
    `select ${DELIVERY_COLUMNS} from webhook_delivery d join webhook_event e on e.id = d.event_id
    where d.endpoint_id = ? order by d.id desc limit ?`,
    [id, limit],
  );
  return rows.map(deliveryView);
}

/** The company's endpoints with their last five deliveries each. */
export async function listEndpoints(em: Em, companyId: number, retryForMs: number): Promise<EndpointView[]> {
  const eps = await em.find(
    WebhookEndpoint,
    { company: companyId },
    { orderBy: { id: 'asc' }, populate: ['createdBy'] },
  );
  if (eps.length === 0) return [];
  const rows = await em.execute<DeliveryRow[]>(
    `select ${DELIVERY_COLUMNS} from webhook_endpoint w
    cross join lateral (select * from webhook_delivery x where x.endpoint_id = w.id order by x.id desc limit 5) d
    join webhook_event e on e.id = d.event_id
    where w.company_id = ? order by d.id desc`,
    [companyId],
  );
  const now = Date.now();
  return eps.map((ep) => ({
    id: ep.id,
    url: ep.url,
    events: [...ep.events],
    enabled: ep.enabled,
    createdAt: ep.createdAt.toISOString(),
    createdBy: ep.createdBy?.name ?? null,
    failingSince: ep.failingSince ? ep.failingSince.toISOString() : null,
    failing: !!ep.failingSince && now - ep.failingSince.getTime() >= retryForMs,
    lastDeliveries: rows.filter((r) => r.endpoint_id === ep.id).map(deliveryView),
  }));
}
