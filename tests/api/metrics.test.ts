// Long: the token, the port and every counter are read from one server and its receiver.
// /metrics: Prometheus text for a bearer of METRICS_TOKEN only (anyone else: the 404 of an unknown path, so a
// wrong token learns nothing), on METRICS_PORT on loopback without a token; the counters and gauges move with
// what the portal does (the webhook outbox against a receiver on 127.0.0.1 that answers 500); route labels are
// patterns, never the raw URLs with their ids.
import net from 'node:net';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { labelValues, sample } from '#tests/helpers/metrics.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { poster, webhookReceiver } from '#tests/helpers/webhooks.ts';

const TOKEN = 'a-metrics-token-of-the-tests-0123456789';
// Webhooks to 127.0.0.1, quick retries, given up 5 s after the event.
const WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_TIMEOUT_MS: '700',
  WEBHOOK_BACKOFF_MS: '100',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_RETRY_FOR_MS: '5000',
};
const portal = useScreens({ browser: false, env: { METRICS_TOKEN: TOKEN, METRICS_PORT: '0', ...WEBHOOKS } });
const newIccid = iccidFactory('8946333');

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(portal.server.url + path, { headers, redirect: 'manual' });

async function scrape(): Promise<string> {
  const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
  expect(res.status).toBe(200);
  return res.text();
}

describe('who may read /metrics', () => {
  it('answers 404, as an unknown API path, without the token or with a wrong one', async () => {
    const unknown = await get('/api/no-such-path');
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.text();
    const tries: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-of-the-same-kind-0123456' },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of tries) {
      const res = await get('/metrics', headers);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.text()).toBe(unknownBody);
    }
  });

  it('answers the text format to a bearer of the token', async () => {
    const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    for (const name of [
      'sim_portal_http_requests_total',
      'sim_portal_http_request_duration_seconds',
      'sim_portal_event_streams_open',
      'sim_portal_db_pool_total',
      'sim_portal_db_pool_idle',
      'sim_portal_db_pool_waiting',
      'sim_portal_login_links_total',
      'sim_portal_bulk_runs_total',
      'sim_portal_webhook_outbox_pending',
      'sim_portal_webhook_deliveries_delivered_total',
      'sim_portal_webhook_attempts_failed_total',
      'sim_portal_webhook_deliveries_failed_total',
      'sim_portal_process_resident_memory_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('is served without a token on METRICS_PORT, bound to 127.0.0.1 only', async () => {
    const url = new URL(portal.server.metricsUrl!);
    expect(url.hostname).toBe('127.0.0.1');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE sim_portal_http_requests_total counter');
    // Nothing else is served there.
    expect((await fetch(new URL('/sims', url))).status).toBe(404);
    expect((await fetch(new URL('/healthz', url))).status).toBe(404);
    // Another address of this machine does not reach it.
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    for (const address of others) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = net.connect(Number(url.port), address);
        s.once('connect', () => {
          s.destroy();
          resolve(false);
        });
        s.once('error', () => resolve(true));
      });
      expect(refused, `METRICS_PORT reachable on ${address}`).toBe(true);
    }
  });
});

describe('what /metrics counts', () => {
  it('counts requests by route pattern and status, never by raw URL', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const before = await scrape();
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'sim_portal_http_requests_total', labels);
    const livez = { method: 'GET', route: '/livez', status: '200' };
    const sim = { method: 'GET', route: '/api/sim/{id}', status: '404' };
    const page = { method: 'GET', route: '/sims/:id' };
    const unknown = { method: 'GET', route: '/*' };
    for (const [path, withCookie] of [
      ['/livez', false],
      ['/livez', false],
      ['/api/sim/987654', true],
      ['/api/sim/876543', true],
      ['/sims/765432', true],
      ['/no/such/page/654321', true],
    ] as const) {
      await (await get(path, withCookie ? { cookie } : {})).text();
    }
    // A request is counted once its answer has gone out in full.
    await expect
      .poll(async () => {
        const now = await scrape();
        return [livez, sim, page, unknown].map((l) => count(now, l) - count(before, l));
      })
      .toEqual([2, 2, 1, 1]);
    const after = await scrape();
    expect(sample(after, 'sim_portal_http_request_duration_seconds_count', sim)).toBe(
      sample(before, 'sim_portal_http_request_duration_seconds_count', sim) + 2,
    );
    for (const id of ['987654', '876543', '765432', '654321']) expect(after).not.toContain(id);
    for (const route of labelValues(after, 'sim_portal_http_requests_total', 'route')) {
      expect(route).toMatch(/^(\/[a-zA-Z0-9_.:{}*-]*)+$|^unmatched$/); // patterns: letters, parameters, splats
    }
  });

  it('shows the open event streams', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const open = async () => sample(await scrape(), 'sim_portal_event_streams_open');
    const before = await open();
    const gone = new AbortController();
    const stream = await fetch(`${portal.server.url}/api/sse`, { headers: { cookie }, signal: gone.signal });
    expect(stream.status).toBe(200);
    await expect.poll(open, { timeout: 10_000 }).toBe(before + 1);
    gone.abort();
    await expect.poll(open, { timeout: 10_000 }).toBe(before);
  });

  it('counts login links sent and refused by the rate limit', async () => {
    const before = await scrape();
    const links = (labels: Record<string, string>, text: string) =>
      sample(text, 'sim_portal_login_links_total', labels);
    // Six requests for one address: five links, the sixth refused (ADDRESS_LIMIT).
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${portal.server.url}/api/trpc/auth.requestLink`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ destination: 'anna@demo.test' }),
      });
      expect(res.status).toBe(200);
    }
    await portal.server.services.settled();
    const after = await scrape();
    expect(links({ outcome: 'sent' }, after)).toBe(links({ outcome: 'sent' }, before) + 5);
    expect(links({ outcome: 'refused', reason: 'address' }, after)).toBe(
      links({ outcome: 'refused', reason: 'address' }, before) + 1,
    );
  });

  it('counts bulk runs', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const runs = async (kind: string) => sample(await scrape(), 'sim_portal_bulk_runs_total', { kind });
    const [preview, activate] = [await runs('activate_preview'), await runs('activate')];
    const body = {
      dataLimit: 1000,
      callAndSms: true,
      roaming: false,
      invoiceLineMark: 'Mätning',
      invoiceLineNote: '',
      iccids: [newIccid()],
    };
    for (const dryRun of [true, false]) {
      const res = await fetch(`${portal.server.url}/api/sim/bulk`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, dryRun }),
      });
      expect(res.status).toBe(200);
    }
    expect(await runs('activate_preview')).toBe(preview + 1);
    expect(await runs('activate')).toBe(activate + 1);
  });

  it('shows the database pool on PostgreSQL', async () => {
    const text = await scrape();
    if (portal.server.db.kind === 'postgres') expect(sample(text, 'sim_portal_db_pool_total')).toBeGreaterThan(0);
    else expect(sample(text, 'sim_portal_db_pool_total')).toBe(0); // PGlite: one in-process connection, no pool
  });

  it('shows the webhook outbox: deliveries pending, failed attempts, and deliveries given up', async () => {
    // A receiver that answers every delivery 500.
    let hits = 0;
    const rx = await webhookReceiver(() => {
      hits++;
      return 500;
    });
    try {
      const e = portal.server.services.orm.em.fork();
      const company = e.create(Company, {
        name: 'Mätkrok AB',
        customerNumber: `METRICS-${Date.now()}`,
        invoiceNote: '',
      });
      const owner = e.create(User, { name: 'Ägare', email: `owner.${Date.now()}@metrics.se`, company, role: 'owner' });
      await e.flush();
      const cookie = await portal.server.sessionCookie(owner.email);
      const post = poster(portal.server.url, cookie);
      const registered = await post('/api/company/webhooks', { url: rx.url, events: ['sim.activated'] });
      expect(registered.status).toBe(200);
      const before = await scrape();
      const pending = (text: string) => sample(text, 'sim_portal_webhook_outbox_pending');
      const attempts = (text: string) => sample(text, 'sim_portal_webhook_attempts_failed_total');
      const givenUp = (text: string) => sample(text, 'sim_portal_webhook_deliveries_failed_total');

      const activated = await post('/api/sim', {
        iccid: newIccid(),
        dataLimit: 1000,
        callAndSms: true,
        roaming: false,
        invoiceLineMark: 'Krok',
        invoiceLineNote: '',
      });
      expect(activated.status).toBe(200);
      // Retried for 5 s after the event (at about 0, 0.1, 0.4, 1 and 4 s): pending meanwhile, failed then.
      await expect
        .poll(async () => pending(await scrape()), { timeout: 10_000, interval: 100 })
        .toBe(pending(before) + 1);
      await expect.poll(async () => attempts(await scrape()), { timeout: 10_000 }).toBeGreaterThan(attempts(before));
      await expect.poll(async () => givenUp(await scrape()), { timeout: 30_000 }).toBe(givenUp(before) + 1);
      const after = await scrape();
      expect(pending(after)).toBe(pending(before));
      // Every attempt the receiver answered counted as a failure, and once given up, none more.
      expect(attempts(after) - attempts(before)).toBe(hits);
      expect(hits).toBeGreaterThanOrEqual(2);
    } finally {
      await rx.close();
    }
  });
});
