// Live usage (issue 39) in a real Chromium: an open SIM page and /sims show the usage the network sends while they
// are open, without a reload (the event stream's 'usage' event, then the page's own data fetched again once:
// app/utils/live-usage.ts), and no request per SIM.
import { beforeAll, describe, expect, it } from 'vitest';
import { createNetworkKey } from '#server/network/keys.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens();
let key = '';
let sim: { id: number; iccid: string };

beforeAll(async () => {
  const em = portal.server.services.orm.em.fork();
  const [admin] = await em.execute<Array<{ id: number }>>('select id from app_user where is_super_admin limit 1');
  key = (await createNetworkKey(em, { userId: Number(admin?.id), actingCompanyId: null }, { name: 'live-e2e' })).key;
  const [row] = await em.execute<Array<{ id: number; iccid: string }>>(
    `select id, iccid from sim where status = 'active' order by id limit 1`,
  );
  if (!row) throw new Error('the demo data has no active SIM');
  sim = row;
});

/** Sends one record of `bytes` down for the SIM, ending now. */
async function send(recordId: string, bytes: number) {
  const end = new Date();
  const res = await fetch(`${portal.server.url}/api/network/usage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      records: [
        {
          recordId,
          iccid: sim.iccid,
          start: new Date(end.getTime() - 5 * 60_000).toISOString(),
          end: end.toISOString(),
          bytesUp: 0,
          bytesDown: bytes,
        },
      ],
    }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ taken: 1 });
}

describe('live usage', () => {
  it('the SIM page shows new usage without a reload, fetching its data once', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: true });
    // The event stream open (the toaster opens it once hydrated): its answer's headers came.
    const stream = page.waitForResponse((r) => r.url().includes('/api/sse'));
    await page.goto(`/sims/${sim.id}`);
    await page.waitForFunction(() => '__remixRouter' in window);
    // A mark on the window: gone if the page were loaded again.
    await page.evaluate(() => Object.assign(window, { liveMark: 1 }));
    const figure = page.locator('#month-figure');
    const before = await figure.innerText();
    const loads: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.includes('.data')) loads.push(r.url());
    });
    await stream;
    await send(`live-e2e-${Date.now()}`, 3_000_000_000);
    await expect.poll(() => figure.innerText(), { timeout: 30_000 }).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
    expect(loads).toHaveLength(1);
    await page.close();
  }, 90_000);

  it('/sims shows it too', async () => {
    const page = await portal.loggedInPage('anna@demo.test', { js: true });
    const stream = page.waitForResponse((r) => r.url().includes('/api/sse'));
    await page.goto('/sims');
    await page.waitForFunction(() => '__remixRouter' in window);
    await stream;
    const row = page.getByRole('row').filter({ hasText: sim.iccid });
    const before = await row.innerText();
    await send(`live-e2e-list-${Date.now()}`, 5_000_000_000);
    await expect.poll(() => row.innerText(), { timeout: 30_000 }).not.toBe(before);
    await page.close();
  }, 90_000);
});
