// Long: one nginx and three built instances, started once, serve all five cases (starting them is most of the run).
// Several instances: three processes of the built server (build/node, as `npm start` runs it) on one PostgreSQL
// database behind a real nginx, started with a configuration generated from deploy/nginx/sim-portal.conf on
// loopback ports (no TLS). A login through nginx holds whichever instance answers; the login rate limit is
// shared; a toast made on one instance reaches event streams on the other two; under 50-connection load one
// instance is stopped (SIGTERM) and another killed (SIGKILL) without one failed idempotent request, every
// acknowledged activation is in the database exactly once, and event streams reopened through nginx receive.
// Webhook events caused through nginx (so on every instance) reach a receiver on 127.0.0.1 once per event id,
// whichever instance's worker claims them.
// Needs DATABASE_URL and nginx (Debian's package, installed by .ci/run); skips with the reason otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '#tests/helpers/ports.ts';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIsStale, serverBundle } from '#scripts/build.js';
import { findNginx, heldPort, startNginx, waitForOk, type LocalNginx } from '#tests/helpers/nginx.ts';
import { freshDatabase, usingPostgres } from '#tests/helpers/db.ts';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { sample } from '#tests/helpers/metrics.ts';
import { linkIn, stepUpTokenIn, startSmtp } from '#tests/helpers/smtp.ts';
import { openStream as openSse } from '#tests/helpers/sse.ts';
import { poster, webhookReceiver } from '#tests/helpers/webhooks.ts';
import { SoftAuthenticator } from '#tests/helpers/webauthn.ts';

const NGINX = findNginx();
const skipReason = !usingPostgres
  ? 'several instances share one PostgreSQL database: set DATABASE_URL'
  : !NGINX
    ? 'nginx is not installed (apt-get install nginx; .ci/run installs it)'
    : null;
if (skipReason) console.warn(`tests/api/instances.test.ts skipped: ${skipReason}`);

const newIccid = iccidFactory('8946555');
const SECRET = 'a-session-secret-shared-by-the-three-instances';

type Instance = { name: string; port: number; metricsPort: number; child: ChildProcess; dataDir: string };

needs(describe, 'PostgreSQL', 'nginx')('three instances behind nginx', { timeout: 240_000 }, () => {
  const instances: Instance[] = [];
  let nginx: LocalNginx | null = null;
  let base: string;
  let dbUrl: string;
  let drop: () => Promise<void>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let nginxPort: number;

  async function startInstance(name: string): Promise<Instance> {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `sim-portal-${name}-`));
    const child = spawn(process.execPath, [path.resolve('scripts/start.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        APP_URL: base,
        DATABASE_URL: dbUrl,
        // The operator's explicit opt-in: without it a PostgreSQL database gets no demo data.
        DEMO_DATA: 'true',
        SESSION_SECRET: SECRET,
        TRUST_PROXY: 'loopback',
        // One cookie loops over GET /api/sim/all for seconds: far beyond a person's budget.
        API_SESSION_RATE_LIMIT: '100000000',
        COMPANY_RATE_LIMIT: '100000000',
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        LOG_LEVEL: 'warn',
        // Webhooks to the test's receiver on 127.0.0.1, each instance looking for due deliveries 5 times a second.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_POLL_MS: '200',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const instance = { name, port, metricsPort, child, dataDir };
    instances.push(instance);
    await waitForOk(`http://127.0.0.1:${port}/readyz`, child);
    return instance;
  }

  const metricsOf = async (i: Instance) => (await fetch(`http://127.0.0.1:${i.metricsPort}/metrics`)).text();

  beforeAll(async () => {
    expect(existsSync(serverBundle) && !buildIsStale(), 'the build is missing or stale: npm run build').toBe(true);
    const db = await freshDatabase();
    drop = db.drop;
    dbUrl = (db.target as { url: string }).url;
    smtp = await startSmtp();
    const held = await heldPort();
    nginxPort = held.port;
    base = `http://127.0.0.1:${nginxPort}`;
    // The first one migrates and seeds; the other two find the database ready.
    await startInstance('a');
    await Promise.all([startInstance('b'), startInstance('c')]);

    // nginx on a copy of deploy/nginx/sim-portal.conf (a rewrite that no longer finds its line throws).
    nginx = await startNginx(
      instances.map((i) => i.port),
      held,
    );
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(
      instances.map(async (i) => {
        if (i.child.exitCode === null && i.child.signalCode === null) {
          const exited = new Promise((r) => i.child.once('exit', r));
          i.child.kill('SIGTERM');
          await exited;
        }
        rmSync(i.dataDir, { recursive: true, force: true });
      }),
    );
    await smtp?.close();
    await drop?.();
  });

  it('keeps a login made through nginx on every instance', async () => {
    const trpc = (procedure: string, input: unknown, cookie = '') =>
      fetch(`${base}/api/trpc/${procedure}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(input),
      });
    expect((await trpc('auth.requestLink', { destination: 'anna@demo.test' })).status).toBe(200);
    await expect.poll(() => smtp.to('anna@demo.test').length, { timeout: 20_000 }).toBe(1);
    const token = new URL(linkIn(smtp.to('anna@demo.test')[0]!.raw)).searchParams.get('token')!;
    const consumed = await trpc('auth.consumeLink', { token });
    expect(consumed.status).toBe(200);
    const cookie = consumed.headers.getSetCookie()[0]!.split(';')[0]!;

    const served = async () =>
      Promise.all(
        instances.map(async (i) =>
          sample(await metricsOf(i), 'sim_portal_http_requests_total', { route: '/api/sim/all', status: '200' }),
        ),
      );
    const before = await served();
    for (let n = 0; n < 12; n++) {
      const res = await fetch(`${base}/api/sim/all`, { headers: { cookie } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // Round robin: each instance answered some of them, and recognised the session every time.
    await expect
      .poll(async () => (await served()).reduce((sum, n, k) => sum + n - before[k]!, 0), { timeout: 10_000 })
      .toBe(12);
    const after = await served();
    for (let k = 0; k < instances.length; k++) expect(after[k]! - before[k]!).toBeGreaterThan(0);
  });

  it('shares the login rate limit: the sixth link request is refused whichever instance answers it', async () => {
    for (let n = 0; n < 6; n++) {
      const res = await fetch(`${base}/api/trpc/auth.requestLink`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ destination: 'admin@demo.test' }),
      });
      expect(res.status).toBe(200);
    }
    const refused = async () => {
      let sum = 0;
      for (const i of instances)
        sum += sample(await metricsOf(i), 'sim_portal_login_links_total', { outcome: 'refused', reason: 'address' });
      return sum;
    };
    await expect.poll(refused, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => smtp.to('admin@demo.test').length, { timeout: 20_000 }).toBe(5);
  });

  it('brings a toast made on one instance to event streams held by the other two', async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const cookie = await sessionCookieVia(base, smtp, 'anna@demo.test');
    const streams = await Promise.all([b, c].map((i) => openStream(`http://127.0.0.1:${i.port}`, cookie)));
    const iccid = newIccid();
    const res = await fetch(`http://127.0.0.1:${a.port}/api/sim`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ iccid, dataLimit: 500, callAndSms: false, roaming: false, invoiceLineMark: 'Fan-out' }),
    });
    expect(res.status).toBe(200);
    for (const s of streams) await expect.poll(s.text, { timeout: 15_000 }).toContain(iccid);
    for (const s of streams) await s.close();
  });

  // Before any instance is stopped or killed: at least once could repeat an event after a crash, not here.
  it('delivers webhook events exactly once per event id across instances', async () => {
    const N = 30;
    const got: string[] = [];
    const rx = await webhookReceiver((body) => {
      got.push((JSON.parse(body) as { id: string }).id);
      return 204;
    });
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      // A company of its own with its owner (the demo's owner, admin@demo.test, has used up its login links).
      const email = `owner.${Date.now()}@webhooks.se`;
      const companyId = (
        await client.query<{ id: number }>(
          `insert into company (name, customer_number, invoice_note, invoice_interval, created_at, updated_at)
           values ('Krokar AB', $1, '', 'monthly', now(), now()) returning id`,
          [`HOOKS-${Date.now()}`],
        )
      ).rows[0]!.id;
      await client.query(
        `insert into app_user (name, email, company_id, role, is_super_admin, created_at)
         values ('Ägare Krok', $1, $2, 'owner', false, now())`,
        [email, companyId],
      );
      const cookie = await sessionCookieVia(base, smtp, email);
      // Adding a webhook needs a recent passkey use: the owner adds one and confirms with it, through nginx.
      await stepUpVia(base, cookie, smtp, email);
      const delivered = async () =>
        Promise.all(
          instances.map(async (i) => sample(await metricsOf(i), 'sim_portal_webhook_deliveries_delivered_total')),
        );
      const deliveredBefore = await delivered();
      const post = poster(base, cookie);
      const registered = await post('/api/company/webhooks', { url: rx.url, events: ['sim.activated'] });
      expect(registered.status).toBe(200);

      // N activations through nginx, five at a time: round robin spreads them over the three instances.
      const iccids = Array.from({ length: N }, () => newIccid());
      for (let k = 0; k < N; k += 5) {
        const answers = await Promise.all(
          iccids.slice(k, k + 5).map(async (iccid) => {
            const res = await post('/api/sim', {
              iccid,
              dataLimit: 500,
              callAndSms: false,
              roaming: false,
              invoiceLineMark: 'Krok',
            });
            await res.arrayBuffer();
            return res.status;
          }),
        );
        expect(answers).toEqual([200, 200, 200, 200, 200]);
      }
      await expect.poll(() => new Set(got).size, { timeout: 30_000 }).toBe(N);
      // Then a little more: several polls of every instance, in which a second delivery would show.
      const settled = got.length;
      await expect
        .poll(
          async () =>
            (
              await client.query<{ n: number }>(
                `select count(*)::int as n from webhook_delivery d join webhook_endpoint w on w.id = d.endpoint_id
                 where w.company_id = $1 and d.status = 'delivered'`,
                [companyId],
              )
            ).rows[0]!.n,
          { timeout: 10_000 },
        )
        .toBe(N);
      // A deliberate quiet period, the one thing this test shows by waiting: seven poll rounds of each instance
      // (WEBHOOK_POLL_MS 200) in which nothing more may come. No event marks "nothing was sent" to wait for.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(got.length).toBe(settled);
      expect(got.length).toBe(N);
      // Each event id once, and they are the events written with the activations.
      const events = (
        await client.query<{ id: string }>(`select id from webhook_event where company_id = $1`, [companyId])
      ).rows.map((r) => r.id);
      expect([...got].sort()).toEqual(events.sort());
      const attempts = (
        await client.query<{ attempts: number }>(
          `select d.attempts from webhook_delivery d join webhook_endpoint w on w.id = d.endpoint_id
           where w.company_id = $1`,
          [companyId],
        )
      ).rows.map((r) => r.attempts);
      expect(attempts).toEqual(Array.from({ length: N }, () => 1));
      // And the instances, between them, counted N deliveries (however the claims fell among them).
      const byInstance = (await delivered()).map((n, k) => n - deliveredBefore[k]!);
      expect(byInstance.reduce((x, y) => x + y, 0)).toBe(N);
    } finally {
      await client.end();
      await rx.close();
    }
  });

  // No retry in CI: this test stops one instance and kills another, so a second run could not pass and would only
  // hide the first run's failure behind its own.
  it(
    'loses no idempotent request and no acknowledged activation when one instance stops and another dies',
    { retry: 0 },
    async () => {
      const [a, b] = instances as [Instance, Instance, Instance];
      const cookie = await sessionCookieVia(base, smtp, 'anna@demo.test');
      // Event streams through nginx (round robin: spread over the instances); how many each of the two
      // instances about to go holds.
      const streams = await Promise.all([0, 1, 2].map(() => openStream(base, cookie)));
      const openOn = async (i: Instance) => sample(await metricsOf(i), 'sim_portal_event_streams_open');
      await expect
        .poll(async () => (await Promise.all(instances.map(openOn))).reduce((x, y) => x + y, 0), { timeout: 10_000 })
        .toBe(3);
      const goingAway = (await openOn(a)) + (await openOn(b));
      // Every answer is counted, none is passed over. A read must be answered 200, or 503 with Retry-After (the
      // instance left refusing at once when its pool cannot keep up on a loaded machine: an answer that says when to
      // try again, not a lost request; nginx passes it through, deploy/ does not retry a 503). An activation the same,
      // with one exception: a POST that nginx has sent on to instance b when b is killed is cut off with it, and
      // nginx, which never resends a POST it has sent, answers it with its own 502 (no X-Request-Id: not the portal's
      // answer). That is allowed only for a POST sent before the test saw b exit (a killed process takes a moment
      // to go, and nginx sends to it until it has gone) and answered after the SIGKILL; all of them are cut at b's
      // death, so at most one per writer. The same for a POST nginx had sent to instance a on a keep-alive
      // connection that a's graceful stop closed at that moment (cutWithAnInstance, below).
      // Anything else fails the test, and so does every network error: nginx stands between the test and the
      // instances, so no connection of the test's is ever cut.
      const failures: string[] = [];
      const acknowledged: string[] = [];
      const reads = { ok: 0, refused: 0 };
      const writes = { ok: 0, refused: 0 };
      const cutOff: string[] = [];
      let stoppedAt = Infinity;
      let killedAt = Infinity;
      let diedAt = Infinity;
      let exitedAt = Infinity;
      // nginx's own 502 for a POST it had sent to an instance as that instance went: b when it is killed, and a
      // at the one moment its graceful stop closes its idle keep-alive connections. While anything is in flight the
      // drain answers a request on such a connection with Connection: close (server/index.ts; proved without a race
      // in tests/api/shutdown.test.ts), but when it then closes the idle ones, nginx may be writing a request on one
      // at that instant, and it never resends a POST it has sent. Rare, named, not passed over. Nothing acknowledged
      // is lost: the client was told the request failed, and a retry with an Idempotency-Key is safe.
      const cutWithAnInstance = (sent: number, answered: number) =>
        (sent <= diedAt && answered >= killedAt) || (sent <= exitedAt && answered >= stoppedAt);
      // When a request was sent and answered, against the SIGTERM and the SIGKILL: for a failure's message.
      const when = (sent: number) => {
        const at = (t: number, mark: number, name: string) =>
          mark === Infinity ? '' : ` ${name}${t - mark >= 0 ? '+' : ''}${t - mark} ms`;
        const now = Date.now();
        const marks = (t: number) =>
          `${at(t, stoppedAt, 'TERM')}${at(t, killedAt, 'KILL')}${at(t, diedAt, 'b exited')}`;
        return `(sent${marks(sent)}, answered${marks(now)})`;
      };
      let stop = false;
      const refusal = (res: Response) => res.status === 503 && !!res.headers.get('retry-after');
      const reader = async () => {
        while (!stop) {
          try {
            const res = await fetch(`${base}/api/sim/all`, { headers: { cookie } });
            await res.arrayBuffer();
            if (res.status === 200) reads.ok++;
            else if (refusal(res)) reads.refused++;
            else failures.push(`GET ${res.status}`);
          } catch (e) {
            failures.push(`GET ${(e as Error).message}`);
          }
        }
      };
      const writer = async () => {
        while (!stop) {
          const iccid = newIccid();
          const sent = Date.now();
          try {
            const res = await fetch(`${base}/api/sim`, {
              method: 'POST',
              headers: { cookie, 'content-type': 'application/json' },
              body: JSON.stringify({
                iccid,
                dataLimit: 500,
                callAndSms: false,
                roaming: false,
                invoiceLineMark: 'Last',
              }),
            });
            await res.arrayBuffer();
            if (res.status === 200) {
              writes.ok++;
              acknowledged.push(iccid);
            } else if (refusal(res)) writes.refused++;
            else if (res.status === 502 && !res.headers.has('x-request-id') && cutWithAnInstance(sent, Date.now()))
              cutOff.push(when(sent));
            else failures.push(`POST ${res.status} ${iccid} ${when(sent)}`);
          } catch (e) {
            failures.push(`POST ${(e as Error).message}`);
          }
        }
      };
      // 50 connections: 45 reading, 5 activating.
      const writers = 5;
      const load = [...Array.from({ length: 45 }, reader), ...Array.from({ length: writers }, writer)];
      const waitForGets = async (n: number) => {
        const target = reads.ok + n;
        await expect.poll(() => reads.ok, { timeout: 60_000 }).toBeGreaterThanOrEqual(target);
      };
      await waitForGets(200);
      const stopped = new Promise((r) =>
        a.child.once('exit', () => {
          exitedAt = Date.now();
          r(null);
        }),
      );
      stoppedAt = Date.now();
      a.child.kill('SIGTERM');
      await waitForGets(200);
      const killed = new Promise((r) =>
        b.child.once('exit', () => {
          diedAt = Date.now();
          r(null);
        }),
      );
      killedAt = Date.now();
      b.child.kill('SIGKILL');
      await Promise.all([stopped, killed]);
      await waitForGets(300);
      stop = true;
      await Promise.all(load);

      console.info(
        `instances: reads ${reads.ok} answered, ${reads.refused} refused with 503 and Retry-After; ` +
          `activations ${writes.ok} acknowledged, ${writes.refused} refused, ${cutOff.length} cut off with an instance that went ${cutOff.join(' ')}`,
      );
      expect(failures).toEqual([]);
      expect(cutOff.length).toBeLessThanOrEqual(2 * writers); // at most one per writer for each instance that went
      expect(writes.ok).toBeGreaterThan(0);
      expect(acknowledged.length).toBe(writes.ok);

      // The streams of the two that went are closed; reopened through nginx (as the browser's EventSource
      // does), they and the one that stayed receive the next toast.
      await expect.poll(() => streams.filter((s) => s.closed()).length, { timeout: 20_000 }).toBe(goingAway);
      const live = [
        ...streams.filter((s) => !s.closed()),
        ...(await Promise.all(streams.filter((s) => s.closed()).map(() => openStream(base, cookie)))),
      ];
      const iccid = newIccid();
      const toast = await fetch(`${base}/api/sim`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ iccid, dataLimit: 500, callAndSms: false, roaming: false, invoiceLineMark: 'Efter' }),
      });
      expect(toast.status).toBe(200);
      for (const s of live) await expect.poll(s.text, { timeout: 15_000 }).toContain(iccid);
      await Promise.all([...streams, ...live].map((s) => s.close()));
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      try {
        const rows = (
          await client.query<{ iccid: string; n: number }>(
            'select iccid, count(*)::int as n from sim where iccid = any($1) group by iccid',
            [acknowledged],
          )
        ).rows;
        expect(rows.length).toBe(acknowledged.length);
        expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      } finally {
        await client.end();
      }
    },
  );
});

/** A session made through nginx: a link requested and used there. */
async function sessionCookieVia(base: string, smtp: Awaited<ReturnType<typeof startSmtp>>, email: string) {
  const before = smtp.to(email).length;
  await fetch(`${base}/api/trpc/auth.requestLink`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ destination: email }),
  });
  await expect.poll(() => smtp.to(email).length, { timeout: 20_000 }).toBe(before + 1);
  const token = new URL(linkIn(smtp.to(email).at(-1)!.raw)).searchParams.get('token')!;
  const res = await fetch(`${base}/api/trpc/auth.consumeLink`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

/**
 * The owner, who has no passkey, confirms by the step-up link from their e-mail (adding a passkey needs a step-up
 * too), adds a passkey (a software authenticator answering the real ceremonies) and confirms with it: the step-up
 * that sensitive changes such as adding a webhook need. Each call may land on another instance.
 */
async function stepUpVia(base: string, cookie: string, smtp: Awaited<ReturnType<typeof startSmtp>>, email: string) {
  const call = async <T>(procedure: string, input?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api/trpc/${procedure}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: input === undefined ? undefined : JSON.stringify(input),
    });
    expect(res.status, procedure).toBe(200);
    return ((await res.json()) as { result: { data: T } }).result.data;
  };
  const before = smtp.to(email).length;
  await call('passkeys.requestStepUpLink');
  await expect.poll(() => smtp.to(email).length, { timeout: 20_000 }).toBe(before + 1);
  await call('passkeys.stepUpWithLink', { token: stepUpTokenIn(smtp.to(email).at(-1)!.raw) });
  const auth = new SoftAuthenticator(base);
  type Options = { challenge: string; rp: { id?: string }; user: { id: string }; rpId?: string };
  const creation = await call<Options>('passkeys.registrationOptions');
  await call('passkeys.register', { response: auth.register(creation), name: 'Testnyckel' });
  const request = await call<Options>('passkeys.stepUpOptions');
  await call('passkeys.stepUp', { response: auth.assert(request) });
}

/** An event stream, its text so far (open: 200). */
async function openStream(url: string, cookie: string) {
  const stream = await openSse(url, cookie);
  expect(stream.res.status).toBe(200);
  return stream;
}
