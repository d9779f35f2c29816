// Live toasts over server-sent events: delivery, refusal, closing on logout, and fan-out across two
// server instances on one PostgreSQL (LISTEN/NOTIFY).
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_BYTES, MAX_PAYLOAD, newToast, type Hub, type Toast } from '#server/events/hub.ts';
import { newContext } from '#tests/helpers/browser.ts';
import { needs } from '#tests/helpers/needs.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { startTestServer } from '#tests/helpers/server.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream } from '#tests/helpers/sse.ts';

const portal = useScreens();
const newIccid = iccidFactory('8946444');

const userIdOf = async (email: string) =>
  Number(
    (
      await portal.server.services.orm.em
        .fork()
        .execute<Array<{ id: number }>>('select id from app_user where email = ?', [email])
    )[0]!.id,
  );

/** The ids of the toasts a stream's text holds, in order. */
const toastIds = (text: string) =>
  [...text.matchAll(/event: toast\ndata: (.*)\n/g)].map((m) => (JSON.parse(m[1]!) as { id: string }).id);

/** Toasts for two users published in one turn of the event loop: far more than one NOTIFY payload holds. */
function burst(hub: Hub, users: number[], n: number) {
  const sent = new Map<number, Toast[]>(users.map((u) => [u, []]));
  const published = [];
  for (let i = 0; i < n; i++)
    for (const userId of users) {
      // About 500 bytes each: a payload holds at most 13 of them.
      const toast = newToast('info', `Skur ${i}`, `${'x'.repeat(400)} ${i}`);
      sent.get(userId)!.push(toast);
      published.push(hub.publish({ kind: 'toast', userId, toast }));
    }
  return { sent, done: Promise.all(published) };
}

const activate = (url: string, cookie: string) =>
  fetch(`${url}/api/sim`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      iccid: newIccid(),
      dataLimit: 500,
      callAndSms: false,
      roaming: false,
      invoiceLineMark: 'SSE',
    }),
  });

describe('GET /api/sse', () => {
  it('refuses a logged-out client with 401', async () => {
    const res = await fetch(`${portal.server.url}/api/sse`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('Du är inte inloggad.');
  });

  it('streams the toast of an action done in another request, to every tab of that user only', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const tab1 = await openStream(portal.server.url, cookie);
    const tab2 = await openStream(portal.server.url, await portal.server.sessionCookie('anna@demo.test'));
    const other = await openStream(portal.server.url, await portal.server.sessionCookie('admin@demo.test'));
    expect(tab1.res.headers.get('content-type')).toContain('text/event-stream');
    expect(tab1.res.headers.get('content-encoding')).toBeNull();
    await tab1.waitFor(/retry: \d+/);
    expect((await activate(portal.server.url, cookie)).status).toBe(200);
    await tab1.waitFor(/event: toast\ndata: .*SIM-kortet är aktiverat/);
    await tab2.waitFor(/event: toast\ndata: .*SIM-kortet är aktiverat/);
    const data = JSON.parse(tab1.text().match(/event: toast\ndata: (.*)\n/)![1]!);
    expect(data).toMatchObject({
      type: 'info',
      title: 'SIM-kortet är aktiverat',
      message: expect.stringMatching(/^ICCID \d{20}$/),
    });
    // Absence without waiting a while: the other user's own, later toast comes down the same ordered
    // stream, so Anna's would have arrived before it.
    expect((await activate(portal.server.url, await portal.server.sessionCookie('admin@demo.test'))).status).toBe(200);
    await other.waitFor(/event: toast/);
    const toastsOfOther = [...other.text().matchAll(/event: toast\ndata: (.*)\n/g)].map(
      (m) => JSON.parse(m[1]!).message,
    );
    expect(toastsOfOther).toHaveLength(1);
    expect(toastsOfOther[0]).toMatch(/^ICCID \d{20}$/);
    expect(toastsOfOther[0]).not.toBe(data.message);
    await Promise.all([tab1.close(), tab2.close(), other.close()]);
  });

  it('closes the stream when the session ends (logout)', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const tab = await openStream(portal.server.url, cookie);
    await tab.waitFor(/connected/);
    const before = portal.server.services.streams.count();
    const out = await fetch(`${portal.server.url}/auth/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    await expect.poll(() => tab.closed(), { timeout: 5000, message: 'stream not closed' }).toBe(true);
    expect(portal.server.services.streams.count()).toBe(before - 1);
  });

  it('keeps at most 10 streams per user: an 11th closes the oldest', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const tabs = [];
    for (let i = 0; i < 10; i++) {
      const tab = await openStream(portal.server.url, cookie);
      await tab.waitFor(/connected/);
      tabs.push(tab);
    }
    // Another user's streams are not counted against Anna's.
    const other = await openStream(portal.server.url, await portal.server.sessionCookie('admin@demo.test'));
    await other.waitFor(/connected/);
    expect(tabs.some((t) => t.closed())).toBe(false);
    const eleventh = await openStream(portal.server.url, await portal.server.sessionCookie('anna@demo.test'));
    await eleventh.waitFor(/connected/);
    await tabs[0]!.done;
    expect(tabs[0]!.closed()).toBe(true);
    expect(tabs.slice(1).some((t) => t.closed())).toBe(false);
    expect(other.closed()).toBe(false);
    // The ten still open all get the next toast.
    expect((await activate(portal.server.url, cookie)).status).toBe(200);
    for (const tab of [...tabs.slice(1), eleventh]) await tab.waitFor(/event: toast/);
    for (const tab of [...tabs.slice(1), eleventh, other]) await tab.close();
  });

  it('delivers every toast of a burst published in one tick, in order per user, in payloads under the limit', async () => {
    const anna = await openStream(portal.server.url, await portal.server.sessionCookie('anna@demo.test'));
    const admin = await openStream(portal.server.url, await portal.server.sessionCookie('admin@demo.test'));
    await anna.waitFor(/connected/);
    await admin.waitFor(/connected/);
    const [annaId, adminId] = [await userIdOf('anna@demo.test'), await userIdOf('admin@demo.test')];
    // Toasts of about 500 bytes, more than one statement takes (MAX_BATCH_BYTES, about 1 MB): over 150
    // NOTIFYs of under 8000 bytes (PostgreSQL refuses a larger payload, and the whole batch would fail).
    const n = Math.ceil(MAX_BATCH_BYTES / 500 / 2) + 50;
    const { sent, done } = burst(portal.server.services.hub, [annaId, adminId], n);
    expect(n * 500 * 2).toBeGreaterThan(Math.max(MAX_BATCH_BYTES, 150 * MAX_PAYLOAD));
    await done;
    for (const [tab, userId] of [
      [anna, annaId],
      [admin, adminId],
    ] as const) {
      const want = sent.get(userId)!.map((t) => t.id);
      await expect.poll(() => toastIds(tab.text()).length, { timeout: 60_000, interval: 500 }).toBe(want.length);
      expect(toastIds(tab.text())).toEqual(want);
    }
    await Promise.all([anna.close(), admin.close()]);
  });

  it('refuses to publish an event larger than a NOTIFY payload, and still sends the others of its tick', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const tab = await openStream(portal.server.url, cookie);
    await tab.waitFor(/connected/);
    const userId = await userIdOf('anna@demo.test');
    const hub = portal.server.services.hub;
    const before = newToast('info', 'Före', '');
    const huge = { ...newToast('info', 'Stor', ''), message: 'x'.repeat(MAX_PAYLOAD) };
    const after = newToast('info', 'Efter', '');
    const results = await Promise.allSettled([
      hub.publish({ kind: 'toast', userId, toast: before }),
      hub.publish({ kind: 'toast', userId, toast: huge }),
      hub.publish({ kind: 'toast', userId, toast: after }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expect.poll(() => toastIds(tab.text()), { timeout: 10_000 }).toEqual([before.id, after.id]);
    await tab.close();
  });

  needs(it, 'PostgreSQL')(
    'delivers an action on one server instance to a client of another (PostgreSQL LISTEN/NOTIFY)',
    async () => {
      const second = await startTestServer({ db: portal.server.db });
      try {
        const cookie = await portal.server.sessionCookie('anna@demo.test');
        const tab = await openStream(second.url, cookie);
        await tab.waitFor(/connected/);
        expect((await activate(portal.server.url, cookie)).status).toBe(200);
        await tab.waitFor(/event: toast\ndata: .*SIM-kortet är aktiverat/);
        // A burst published on the first instance reaches the second's stream whole and in order.
        const userId = await userIdOf('anna@demo.test');
        const { sent, done } = burst(portal.server.services.hub, [userId], 100);
        await done;
        const want = [toastIds(tab.text())[0]!, ...sent.get(userId)!.map((t) => t.id)];
        await expect.poll(() => toastIds(tab.text()).length, { timeout: 30_000 }).toBe(want.length);
        expect(toastIds(tab.text())).toEqual(want);
        await tab.close();
      } finally {
        await second.stop();
      }
    },
  );
});

describe('toasts in the browser', () => {
  it('shows the toast of an action in another tab, and closes the stream while the tab is hidden', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, cookie });
    const page = await ctx.newPage();
    const base = portal.server.services.streams.count();
    await page.goto('/sims');
    await expect.poll(() => portal.server.services.streams.count(), { timeout: 10_000 }).toBeGreaterThan(base);
    await activate(portal.server.url, cookie);
    const toast = page.getByRole('status').filter({ hasText: 'SIM-kortet är aktiverat' });
    await toast.waitFor();
    // Hidden tab: the stream closes; visible again: it reopens.
    const open = portal.server.services.streams.count();
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => portal.server.services.streams.count(), { timeout: 10_000 }).toBe(open - 1);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => portal.server.services.streams.count(), { timeout: 10_000 }).toBe(open);
    // One toast at a time, gone after 5 s.
    await toast.waitFor({ state: 'detached', timeout: 8000 });
    await ctx.close();
  });

  it('after a form post without JS the toast arrives as a one-time flash rendered by the server', async () => {
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    const ctx = await newContext(portal.browser, { baseURL: portal.server.url, cookie, js: false });
    const page = await ctx.newPage();
    await page.goto('/add');
    await page.getByLabel('ICCID').fill(newIccid());
    await page.getByLabel('Datamängd').selectOption({ label: '500 MB' });
    await page.getByRole('button', { name: 'Aktivera' }).click();
    await page.waitForURL((u) => u.pathname === '/sims');
    await page.getByRole('status').filter({ hasText: 'SIM-kortet är aktiverat' }).waitFor();
    await page.reload();
    expect(await page.getByText('SIM-kortet är aktiverat').count()).toBe(0);
    await ctx.close();
  });
});
