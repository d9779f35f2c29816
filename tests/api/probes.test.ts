// The probes of a load balancer or orchestrator: /livez (the process answers), /readyz (the database answers and
// has every migration of this build), /healthz as before. Not ready: 503 with a JSON body of plain codes, never a
// driver's text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { migrate } from '#server/db/orm.ts';
import { startServer, type RunningServer } from '#server/index.ts';
import { createServices } from '#server/services.ts';
import { freshDatabase } from '#tests/helpers/db.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { type TestServer } from '#tests/helpers/server.ts';
import { serverBehindProxy } from '#tests/helpers/tcp-proxy.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const portal = useScreens({ browser: false });

async function probe(base: string, path: string) {
  const res = await fetch(base + path, { signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  // Plain codes only: no driver text, no stack, no Swedish.
  expect(text).not.toMatch(/ECONN|connect|terminated|relation|\n\s+at |[åäö]/i);
  return { status: res.status, body: JSON.parse(text), cache: res.headers.get('cache-control') };
}

describe('a portal ready for traffic', () => {
  it('is alive, ready, and healthy as before', async () => {
    const base = portal.server.url;
    expect(await probe(base, '/livez')).toEqual({ status: 200, body: { status: 'ok' }, cache: 'no-store' });
    expect(await probe(base, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ok', db: 'ok', migrations: 'ok' },
      cache: 'no-store',
    });
    const health = await probe(base, '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', db: 'ok' });
  });
});

describe('a database without this build’s migrations', () => {
  let running: RunningServer;
  let drop: () => Promise<void>;
  let dataDir: string;
  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-test-'));
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const services = await createServices(config, { db: db.target, migrate: false });
    running = await startServer(config, { services, seed: false });
  });
  afterAll(async () => {
    await running?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is alive but not ready until it is migrated', async () => {
    expect((await probe(running.url, '/livez')).status).toBe(200);
    expect(await probe(running.url, '/readyz')).toMatchObject({
      status: 503,
      body: { status: 'error', db: 'ok', migrations: 'pending' },
    });
    await migrate(running.services.orm);
    expect(await probe(running.url, '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ok', db: 'ok', migrations: 'ok' },
    });
  });
});

needs(describe, 'PostgreSQL')('a database that cannot be reached (PostgreSQL behind a proxy of the test)', () => {
  let server: TestServer;
  let behind: Awaited<ReturnType<typeof serverBehindProxy>>;
  let proxy: Awaited<ReturnType<typeof serverBehindProxy>>['proxy'];
  beforeAll(async () => {
    behind = await serverBehindProxy();
    ({ server, proxy } = behind);
  });
  afterAll(async () => {
    await behind?.stop();
  });

  it('checks the database one probe at a time: a flood of them opens a connection or two, not one each', async () => {
    // The pool's connections are open (a first answer), then 100 probes at once from anyone: each check has a
    // connection of its own (a busy pool cannot hang it), so without a bound they would take PostgreSQL's
    // max_connections (100 here) from every pool of every instance.
    expect((await probe(server.url, '/healthz')).status).toBe(200);
    const before = proxy.open;
    proxy.resetPeak();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => probe(server.url, i % 2 ? '/healthz' : '/readyz')),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // One /healthz and one /readyz check at a time, shared by every probe that asks meanwhile (the margin: a pooled
    // connection the server's own background work may open).
    expect(proxy.peak - before).toBeLessThanOrEqual(4);
  });

  it('answers /readyz 503 while cut off, /livez 200 all along, and is ready again when it is back', async () => {
    expect((await probe(server.url, '/readyz')).status).toBe(200);
    await proxy.cut();
    expect(await probe(server.url, '/readyz')).toEqual({
      status: 503,
      body: { status: 'error', db: 'down', migrations: 'unknown' },
      cache: 'no-store',
    });
    expect(await probe(server.url, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await probe(server.url, '/healthz')).status).toBe(503);
    await proxy.listen();
    await expect
      .poll(async () => (await probe(server.url, '/readyz')).status, { timeout: 20_000, interval: 250 })
      .toBe(200);
  });
});
