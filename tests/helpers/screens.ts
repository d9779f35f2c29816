// What a screen test file starts with: the portal on a fresh database and a Chromium (and, where mail
// matters, a real SMTP server as the peer), started together and stopped in reverse order.
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { startSmtp } from './smtp.js';

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;
export type Screens = { server: TestServer; browser: Browser; smtp: Smtp | null };

/** The server (with extra env, and SMTP_URL of a fresh SMTP server when `smtp` is set) and a browser. */
export async function startScreens<M extends boolean = false>(
  opts: { env?: Record<string, string>; smtp?: M } = {},
): Promise<Screens & { smtp: M extends true ? Smtp : null }> {
  const smtp = opts.smtp ? await startSmtp() : null;
  const [server, browser] = await Promise.all([
    startTestServer({ env: { ...opts.env, ...(smtp ? { SMTP_URL: smtp.url } : {}) } }),
    launchBrowser(),
  ]);
  return { server, browser, smtp } as Screens & { smtp: M extends true ? Smtp : null };
}

export async function stopScreens(s: Partial<Screens> | undefined): Promise<void> {
  await s?.browser?.close();
  await s?.server?.stop();
  await s?.smtp?.close();
}
