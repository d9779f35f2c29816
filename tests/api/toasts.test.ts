// Who decides how a procedure's toast is shown: the door. Over HTTP, the REST door sends it live and never
// keeps a flash; a page's action holds it and decides (a flash after the SIM form, nothing on the admin
// pages, which show a notice of their own). Events arrive in order, so a marker published afterwards
// proves that a toast was not sent, without waiting a fixed time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession, readSessionCookie } from '#server/auth/sessions.ts';
import { newToast, type HubEvent } from '#server/events/hub.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { createContext } from '#server/trpc/context.ts';
import { t } from '#domain/texts/common.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

let server: TestServer;
const events: HubEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  server = await startTestServer();
  unsubscribe = server.services.hub.subscribe((e) => events.push(e));
});
afterAll(async () => {
  unsubscribe?.();
  await server?.stop();
});

const toastTitles = () => events.flatMap((e) => (e.kind === 'toast' ? [e.toast.title] : []));

/** The titles published until a marker sent now arrives: everything published before it. */
async function publishedSoFar(userId: number): Promise<string[]> {
  const marker = newToast('info', `marker-${Math.random()}`, '');
  await server.services.hub.publish({ kind: 'toast', userId, toast: marker });
  await expect.poll(() => toastTitles().includes(marker.title), { timeout: 10_000 }).toBe(true);
  const titles = toastTitles();
  events.length = 0;
  return titles.filter((title) => title !== marker.title);
}

async function sessionOf(cookie: string) {
  const raw = readSessionCookie(cookie, false)!;
  return (await findSession(server.services.orm.em.fork(), raw))!;
}

function post(path: string, cookie: string, body: string, type: string) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': type, 'sec-fetch-site': 'same-origin' },
    body,
  });
}

describe('toasts: the door decides', () => {
  it('the REST door sends the toast live and keeps no flash', async () => {
    const cookie = await server.sessionCookie('anna@demo.test');
    const session = await sessionOf(cookie);
    const res = await post('/api/feedback', cookie, JSON.stringify({ message: 'Hej från API:t' }), 'application/json');
    expect(res.status).toBe(200);
    expect(await publishedSoFar(session.userId)).toEqual([t.feedback.thanks]);
    expect((await sessionOf(cookie)).flash).toBeNull();
  });

  it('an admin page shows its own notice: no toast, no flash', async () => {
    const cookie = await server.sessionCookie('admin@demo.test');
    const session = await sessionOf(cookie);
    const res = await post(
      '/admin/companies',
      cookie,
      new URLSearchParams({ name: 'Toast AB', customerNumber: 'T-1', invoiceNote: '' }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/admin\/companies\?created=\d+$/);
    expect(await publishedSoFar(session.userId)).toEqual([]);
    expect((await sessionOf(cookie)).flash).toBeNull();
  });

  it('a page holds the toast until its action shows it: live, and as the flash for the next page', async () => {
    const cookie = await server.sessionCookie('anna@demo.test');
    const session = await sessionOf(cookie);
    const ctx = await createContext({
      services: server.services,
      headers: new Headers({ cookie }),
      requestId: 'test',
      ip: '127.0.0.1',
      toastMode: 'held',
    });
    await createCaller(ctx).feedback.send({ message: 'Hej från sidan' });
    expect(ctx.toasts.map((toast) => toast.title)).toEqual([t.feedback.thanks]);
    expect(await publishedSoFar(session.userId)).toEqual([]);
    await ctx.showToasts({ flash: true });
    expect(await publishedSoFar(session.userId)).toEqual([t.feedback.thanks]);
    expect((await sessionOf(cookie)).flash).toMatchObject({ title: t.feedback.thanks });
  });
});
