// The webhook delivery worker (issue 16), run by every server instance. Each tick claims due deliveries in
// one statement (FOR UPDATE SKIP LOCKED, so two instances never take the same row) and moves their due
// time ahead as a lease: an instance that dies mid-attempt leaves the row to be retried once the lease is
// over. Each is POSTed, signed, to the address the target guard checked; 2xx is delivered, anything else is
// retried with exponential backoff until the event is older than the retry window (24 h), then failed.
// Everything lives in the database, so a restart loses nothing; delivery is at least once, the event id
// stable for the receiver's de-duplication.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Config } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../log.js';
import { webhookAttemptsFailed, webhookDelivered, webhookDeliveriesFailed } from '../metrics.js';
import { addressProblem, guardedLookup, hostOf, urlProblem, type TargetPolicy } from './target.js';

/** Deliveries attempted at once by one instance. */
export const DELIVERY_CONCURRENCY = 8;
/** The backoff steps, in units of WEBHOOK_BACKOFF_MS (10 s: 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, 1 h ...). */
const BACKOFF_STEPS = [1, 3, 6, 30, 90, 180, 360];

export function backoffMs(attempts: number, base: number): number {
  return base * BACKOFF_STEPS[Math.min(Math.max(attempts, 1), BACKOFF_STEPS.length) - 1]!;
}

/** The signature header's value: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">. */
export function signature(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

type Claimed = {
  id: number;
  attempts: number;
  event_id: string;
  type: string;
  created_at: Date | string;
  company_id: number;
  data: unknown;
  endpoint_id: number;
  url: string;
  secret: string;
};

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const asJson = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

/** The outcome of one attempt: the status code, or our own short reason. */
export type Attempt = { ok: boolean; status: number | null; error: string | null };

/** One signed POST; the answer's body is never read, redirects are not followed. */
export function post(
  url: string,
  body: string,
  secret: string,
  opts: { timeoutMs: number; policy: TargetPolicy },
): Promise<Attempt> {
  const problem = urlProblem(url, opts.policy);
  if (problem) return Promise.resolve({ ok: false, status: null, error: `Adressen nekas (${problem})` });
  const u = new URL(url);
  const host = hostOf(u);
  if (isIP(host) && addressProblem(host, opts.policy))
    return Promise.resolve({ ok: false, status: null, error: 'Adressen nekas' });
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = lib.request(
      u,
      {
        method: 'POST',
        lookup: guardedLookup(opts.policy),
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'SIM-portalen-webhooks/1',
          'x-sim-portal-signature': signature(secret, body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // Only the status matters: the body is not read (nor kept), the connection closed.
        res.destroy();
        done({
          ok: status >= 200 && status < 300,
          status,
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
        });
      },
    );
    // The whole attempt, connect to answer, within the timeout.
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, status: null, error: 'Tidsgränsen överskreds' });
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({
        ok: false,
        status: null,
        error: err.code === 'EWEBHOOKTARGET' ? 'Adressen nekas' : `Anslutningen misslyckades (${err.code ?? 'fel'})`,
      }),
    );
    req.end(body);
  });
}

const CLAIM_SQL = `update webhook_delivery d
  set attempts = d.attempts + 1, last_attempt_at = now(), next_attempt_at = now() + (? * interval '1 millisecond')
  from webhook_event e, webhook_endpoint w
  where d.id in (
    select d2.id from webhook_delivery d2 join webhook_endpoint w2 on w2.id = d2.endpoint_id and w2.enabled
    where d2.status = 'pending' and d2.next_attempt_at <= now()
    order by d2.next_attempt_at limit ? for update of d2 skip locked
  ) and e.id = d.event_id and w.id = d.endpoint_id
  returning d.id, d.attempts, e.id as event_id, e.type, e.created_at, e.company_id, e.data,
    w.id as endpoint_id, w.url, w.secret`;

type WebhookSettings = Config['webhooks'];

/** Claims and attempts what is due now, at most `DELIVERY_CONCURRENCY`; answers how many were claimed. */
export async function deliverDue(orm: Orm, settings: WebhookSettings, log?: Logger): Promise<number> {
  const em = orm.em.fork();
  const lease = settings.timeoutMs + 5_000;
  const claimed = await em.execute<Claimed[]>(CLAIM_SQL, [lease, DELIVERY_CONCURRENCY]);
  await Promise.all(
    claimed.map(async (c) => {
      const body = JSON.stringify({
        id: c.event_id,
        type: c.type,
        createdAt: asDate(c.created_at).toISOString(),
        companyId: c.company_id,
        data: asJson(c.data),
      });
      const a = await post(c.url, body, c.secret, {
        timeoutMs: settings.timeoutMs,
        policy: { allowPrivateTargets: settings.allowPrivateTargets },
      });
      if (a.ok) {
        await em.execute(
          `update webhook_delivery set status = 'delivered', delivered_at = now(), last_status_code = ?, last_error = null where id = ?`,
          [a.status, c.id],
        );
        webhookDelivered.inc();
        await em.execute(`update webhook_endpoint set failing_since = null where id = ?`, [c.endpoint_id]);
        return;
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
      await em.execute(`update webhook_endpoint set failing_since = coalesce(failing_since, now()) where id = ?`, [
        c.endpoint_id,
      ]);
      log?.info(
        { delivery: c.id, attempts: c.attempts, status: a.status, error: a.error, giveUp },
        'webhook attempt failed',
      );
    }),
  );
  return claimed.length;
}

export type WebhookWorker = { stop: () => Promise<void>; wake: () => void };

/** Polls every WEBHOOK_POLL_MS (draining while full batches come back) until stopped. */
export function startWebhookDelivery(services: { orm: Orm; config: Config; log: Logger }): WebhookWorker {
  const settings = services.config.webhooks;
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = null;
    if (running || stopped) return;
    running = (async () => {
      let n = DELIVERY_CONCURRENCY;
      while (!stopped && n === DELIVERY_CONCURRENCY) n = await deliverDue(services.orm, settings, services.log);
    })()
      .catch((err) => services.log.warn({ err }, 'webhook delivery failed'))
      .finally(() => {
        running = null;
        schedule(settings.pollMs);
      });
  };
  schedule(settings.pollMs);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
