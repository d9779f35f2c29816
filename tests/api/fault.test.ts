// Fault: the server's database connections are cut mid-run (through a TCP proxy of the test's own; the
// machine's PostgreSQL is never stopped). While down: 503 with a clear message and /healthz says so.
// When it is back the server recovers by itself, and no acknowledged activation is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { type TestServer } from '#tests/helpers/server.ts';
import { serverBehindProxy } from '#tests/helpers/tcp-proxy.ts';

let server: TestServer;
let behind: Awaited<ReturnType<typeof serverBehindProxy>>;
let proxy: Awaited<ReturnType<typeof serverBehindProxy>>['proxy'];
const newIccid = iccidFactory('8946333');

needs(describe, 'PostgreSQL')('database outage', () => {
  beforeAll(async () => {
    behind = await serverBehindProxy();
    ({ server, proxy } = behind);
  });
  afterAll(async () => {
    await behind?.stop();
  });

  it('answers 503 while the database is cut off and recovers on its own', async () => {
    const cookie = await server.sessionCookie('anna@demo.test');
    const activate = (iccid: string) =>
      fetch(`${server.url}/api/sim`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ iccid, dataLimit: 500, invoiceLineMark: 'Före avbrott' }),
      });
    const acknowledged = newIccid();
    expect((await activate(acknowledged)).status).toBe(200);

    await proxy.cut();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'error', db: 'down' });
    const refused = await activate(newIccid());
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe('Databasen går inte att nå just nu. Försök igen om en stund.');
    const list = await fetch(`${server.url}/api/sim/all`, { headers: { cookie } });
    expect(list.status).toBe(503);
    const page = await fetch(`${server.url}/sims`, { headers: { cookie, accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Databasen går inte att nå just nu');

    await proxy.listen();
    await expect
      .poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 20_000, interval: 250 })
      .toBe(200);
    const after = await fetch(`${server.url}/api/sim/all?q=${acknowledged}`, { headers: { cookie } });
    expect(after.status).toBe(200);
    expect((await after.json()).map((s: { iccid: string }) => s.iccid)).toEqual([acknowledged]);
    expect((await activate(newIccid())).status).toBe(200);
  });
});
