// The webhook delivery worker, run by every server instance (docs/decisions/017). Fair by endpoint: an
// instance serves up to DELIVERY_CONCURRENCY endpoints at once, each with one attempt in flight, taking the
// endpoints with due work in the order they were last served (round-robin), and a slot that frees takes the
// next at once. An endpoint is claimed with a lease (busy_until, FOR UPDATE SKIP LOCKED), so no two instances
// serve it together; a turn sends it up to DELIVERIES_PER_TURN deliveries in a row and ends at its first
// failure, which backs the whole endpoint off (resume_at), so a hanging or failing endpoint holds one slot for
// one timeout and never the others. Each delivery's due time is also its lease: an instance that dies
// mid-attempt leaves the row to be retried once the lease is over. 2xx is delivered, anything else retried with
// exponential backoff until the event is older than the retry window (24 h), then failed. Everything lives in
// the database, so a restart loses nothing; delivery is at least once, the event id stable for de-duplication.
// Each attempt is one signed POST (post.ts).
import { defined } from '#domain/defined.ts';
import type { Config } from '#server/config.ts';
import type { Orm } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import { webhookAttemptsFailed, webhookDelivered, webhookDeliveriesFailed } from '#server/metrics.ts';
import { post } from './post.ts';

/** Endpoints one instance serves at once (one attempt in flight each). */
export const DELIVERY_CONCURRENCY = 8;
/** Deliveries sent to one endpoint in a row before the next endpoint in line has its turn. */
export const DELIVERIES_PER_TURN = 10;
/** After a rotation the old secret signs too, for this long (decision 017). */
export const SECRET_OVERLAP_MS = 24 * 3600_000;
/** The backoff steps, in units of WEBHOOK_BACKOFF_MS (10 s: 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, 1 h ...). */
const BACKOFF_STEPS = [1, 3, 6, 30, 90, 180, 360];

export function backoffMs(attempts: number, base: number): number {
  // The last step repeats once the attempts run past the list.
  const step = BACKOFF_STEPS[Math.min(Math.max(attempts, 1), BACKOFF_STEPS.length) - 1];
  return base * defined(step, `the backoff step of attempt ${attempts}`);
}

type ClaimedEndpoint = { id: number; url: string; secret: string; previous_secret: string | null };

type ClaimedDelivery = {
  id: number;
  attempts: number;
  event_id: string;
  type: string;
  created_at: Date | string;
  company_id: number;
  data: unknown;
};

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const asJson = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

// The endpoints with due work that no instance serves and that are not backing off, least recently served
// first; each claimed for one lease. The partial index (endpoint_id, next_attempt_at) answers each EXISTS.
const CLAIM_ENDPOINTS_SQL = `update webhook_endpoint w
  set busy_until = now() + (? * interval '1 millisecond'), served_at = clock_timestamp()
  where w.id in (
    select w2.id from webhook_endpoint w2
    where w2.enabled and (w2.busy_until is null or w2.busy_until <= now())
      and (w2.resume_at is null or w2.resume_at <= now())
      and exists (select 1 from webhook_delivery d
        where d.endpoint_id = w2.id and d.status = 'pending' and d.next_attempt_at <= now())
    order by w2.served_at nulls first, w2.id limit ? for update of w2 skip locked
  )
  returning w.id, w.url, w.secret,
    case when w.previous_secret_until > now() then w.previous_secret end as previous_secret`;

// The endpoint's next due delivery, its due time moved ahead as the attempt's lease (and the endpoint's lease
// renewed with it).
const CLAIM_DELIVERY_SQL = `with renewed as (
    update webhook_endpoint set busy_until = now() + (? * interval '1 millisecond') where id = ?
  )
  update webhook_delivery d
  set attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + (? * interval '1 millisecond')
  from webhook_event e
  where d.id = (
    select d2.id from webhook_delivery d2
    where d2.endpoint_id = ? and d2.status = 'pending' and d2.next_attempt_at <= now()
    order by d2.next_attempt_at, d2.id limit 1 for update skip locked
  ) and e.id = d.event_id
  returning d.id, d.attempts, e.id as event_id, e.type, e.created_at, e.company_id, e.data`;

type WebhookSettings = Config['webhooks'];

/** The body of one delivery, as the receiver gets it (and the signature covers). */
function deliveryBody(c: ClaimedDelivery): string {
  return JSON.stringify({
    id: c.event_id,
    type: c.type,
    createdAt: asDate(c.created_at).toISOString(),
    companyId: c.company_id,
    data: asJson(c.data),
  });
}

/** Claims up to `limit` endpoints with due work for this instance. */
export async function claimEndpoints(orm: Orm, settings: WebhookSettings, limit: number): Promise<ClaimedEndpoint[]> {
  const lease = settings.timeoutMs + 5_000;
  return orm.em.fork().execute<ClaimedEndpoint[]>(CLAIM_ENDPOINTS_SQL, [lease, limit]);
}

/**
 * One turn at a claimed endpoint: its due deliveries one at a time, up to DELIVERIES_PER_TURN, ending at the
 * first failure (the endpoint then backs off as a whole); then the endpoint is released. Answers how many
 * deliveries were attempted.
 */
export async function serveEndpoint(
  orm: Orm,
  settings: WebhookSettings,
  ep: ClaimedEndpoint,
  log?: Logger,
  stopped: () => boolean = () => false,
): Promise<number> {
  const em = orm.em.fork();
  const lease = settings.timeoutMs + 5_000;
  const secrets = ep.previous_secret ? [ep.secret, ep.previous_secret] : [ep.secret];
  let attempted = 0;
  try {
    while (attempted < DELIVERIES_PER_TURN && !stopped()) {
      const [c] = await em.execute<ClaimedDelivery[]>(CLAIM_DELIVERY_SQL, [lease, ep.id, lease, ep.id]);
      if (!c) break;
      attempted++;
      const a = await post(ep.url, deliveryBody(c), secrets, {
        timeoutMs: settings.timeoutMs,
        policy: { allowPrivateTargets: settings.allowPrivateTargets },
      });
      if (a.ok) {
        await em.execute(
          `update webhook_delivery set status = 'delivered', delivered_at = now(), last_status_code = ?, last_error = null where id = ?`,
          [a.status, c.id],
        );
        webhookDelivered.inc();
        await em.execute(
          `update webhook_endpoint set failing_since = null, failures_in_row = 0, resume_at = null
           where id = ? and (failing_since is not null or failures_in_row <> 0)`,
          [ep.id],
        );
        continue;
      }
      const delay = backoffMs(c.attempts, settings.backoffMs);
      const giveUp = Date.now() + delay - asDate(c.created_at).getTime() > settings.retryForMs;
      webhookAttemptsFailed.inc();
      await em.execute(
        `update webhook_delivery set last_status_code = ?, last_error = ?,
          status = case when ? then 'failed' else 'pending' end,
          next_attempt_at = now() + (? * interval '1 millisecond') where id = ?`,
        [a.status, a.error?.slice(0, 200) ?? null, giveUp, delay, c.id],
      );
      if (giveUp) webhookDeliveriesFailed.inc();
      // The endpoint as a whole waits too: the more failures in a row, the longer (the same steps).
      const [row] = await em.execute<{ failures_in_row: number }[]>(
        `update webhook_endpoint set failing_since = coalesce(failing_since, now()), failures_in_row = failures_in_row + 1
         where id = ? returning failures_in_row`,
        [ep.id],
      );
      await em.execute(`update webhook_endpoint set resume_at = now() + (? * interval '1 millisecond') where id = ?`, [
        backoffMs(row?.failures_in_row ?? 1, settings.backoffMs),
        ep.id,
      ]);
      log?.info(
        { delivery: c.id, endpoint: ep.id, attempts: c.attempts, status: a.status, error: a.error, giveUp },
        'webhook attempt failed',
      );
      break;
    }
  } finally {
    // Released for the next turn (if this fails, the lease runs out by itself).
    await em.execute(`update webhook_endpoint set busy_until = null where id = ?`, [ep.id]).catch(() => undefined);
  }
  return attempted;
}

export type WebhookWorker = { stop: () => Promise<void>; wake: () => void };

/**
 * Serves endpoints in up to DELIVERY_CONCURRENCY slots until stopped: a slot that frees claims the next endpoint
 * at once; with nothing due, it looks again every WEBHOOK_POLL_MS.
 */
export function startWebhookDelivery(services: { orm: Orm; config: Config; log: Logger }): WebhookWorker {
  const settings = services.config.webhooks;
  let stopped = false;
  let filling: Promise<void> | null = null;
  let again = false;
  const turns = new Set<Promise<void>>();
  // Fills the free slots; called by the poll, by a slot that frees and by wake (a call while it runs makes it
  // look once more when done, so no wake-up is lost).
  const fill = () => {
    if (stopped) return;
    if (filling) {
      again = true;
      return;
    }
    filling = (async () => {
      do {
        again = false;
        const free = DELIVERY_CONCURRENCY - turns.size;
        if (free <= 0) return;
        const claimed = await claimEndpoints(services.orm, settings, free);
        for (const ep of claimed) {
          const turn: Promise<void> = serveEndpoint(services.orm, settings, ep, services.log, () => stopped)
            .then(() => undefined)
            .catch((err) => services.log.warn({ err, endpoint: ep.id }, 'webhook delivery failed'))
            .finally(() => {
              turns.delete(turn);
              fill();
            });
          turns.add(turn);
        }
      } while (again && !stopped);
    })()
      .catch((err) => services.log.warn({ err }, 'webhook delivery failed'))
      .finally(() => {
        filling = null;
      });
  };
  const poll = setInterval(fill, settings.pollMs);
  poll.unref();
  return {
    wake: fill,
    async stop() {
      stopped = true;
      clearInterval(poll);
      await filling;
      await Promise.all([...turns]);
    },
  };
}
