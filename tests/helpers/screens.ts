// What a screen test file starts with: the portal on a fresh database and a Chromium (and, where mail
// matters, a real SMTP server as the peer), started together and stopped in reverse order.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { DESKTOP, launchBrowser, MOBILE, newContext } from './browser.ts';
import { startTestServer, type TestServer } from './server.ts';
import { startSmtp } from './smtp.ts';

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;
export type Screens = { server: TestServer; browser: Browser; smtp: Smtp | null };
type ScreensOpts<M extends boolean> = { env?: Record<string, string>; smtp?: M; logs?: boolean };

/** The server (with extra env, and SMTP_URL of a fresh SMTP server when `smtp` is set) and a browser. */
export async function startScreens<M extends boolean = false>(
  opts: ScreensOpts<M> = {},
): Promise<Screens & { smtp: M extends true ? Smtp : null }> {
  const smtp = opts.smtp ? await startSmtp() : null;
  const [server, browser] = await Promise.all([
    startTestServer({ env: { ...opts.env, ...(smtp ? { SMTP_URL: smtp.url } : {}) }, logs: opts.logs }),
    launchBrowser(),
  ]);
  return { server, browser, smtp } as Screens & { smtp: M extends true ? Smtp : null };
}

export async function stopScreens(
  s: { server?: TestServer; browser?: Browser | null; smtp?: Smtp | null } | undefined,
): Promise<void> {
  await s?.browser?.close();
  await s?.server?.stop();
  await s?.smtp?.close();
}

/**
 * The one fixture of a screen or HTTP test file: starts the screens before its tests and stops them after,
 * and hands them out through getters (they exist only once the file's tests run).
 */
export function useScreens<M extends boolean = false>(opts: ScreensOpts<M> & { browser?: boolean } = {}) {
  let started: { server: TestServer; browser: Browser | null; smtp: M extends true ? Smtp : null } | undefined;
  beforeAll(async () => {
    // An HTTP test file needs no browser: only the server (and the SMTP peer if asked).
    if (opts.browser !== false) started = await startScreens(opts);
    else {
      const smtp = (opts.smtp ? await startSmtp() : null) as M extends true ? Smtp : null;
      const server = await startTestServer({
        env: { ...opts.env, ...(smtp ? { SMTP_URL: smtp.url } : {}) },
        logs: opts.logs,
      });
      started = { server, browser: null, smtp };
    }
  });
  afterAll(() => stopScreens(started));
  const get = () => {
    if (!started) throw new Error('useScreens: the screens start in beforeAll; use them inside a test or hook');
    return started;
  };
  const browser = () => {
    const { browser } = get();
    if (!browser) throw new Error('useScreens: started with browser: false');
    return browser;
  };
  return {
    get server() {
      return get().server;
    },
    get browser() {
      return browser();
    },
    get smtp() {
      return get().smtp;
    },
    /**
     * A page in a browser context of its own, with a new session of the user with this e-mail (a super admin
     * may act as a company); JS on unless `js: false`; desktop size unless a `width` (390: a phone).
     */
    async loggedInPage(
      email: string,
      o: { js?: boolean; width?: number; actingCompanyId?: number } = {},
    ): Promise<Page> {
      const { server } = get();
      const viewport = o.width
        ? { width: o.width, height: o.width <= MOBILE.width ? MOBILE.height : DESKTOP.height }
        : DESKTOP;
      const cookie = await server.sessionCookie(email, { actingCompanyId: o.actingCompanyId });
      const context = await newContext(browser(), { baseURL: server.url, js: o.js, viewport, cookie });
      return context.newPage();
    },
  };
}
