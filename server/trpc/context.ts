// The tRPC context: the services, a request-scoped entity manager and the session.
// createContextInner needs no HTTP request, so tests and scripts can build one directly.
import type { Em } from '../db/orm.js';
import { findSession, readSessionCookie, setFlash, type SessionInfo } from '../auth/sessions.js';
import { newToast, type Toast } from '../events/hub.js';
import type { Services } from '../services.js';

export type Context = {
  services: Services;
  em: Em;
  session: SessionInfo | null;
  requestId: string;
  ip: string;
  /** Headers to add to the HTTP answer (Set-Cookie after login, logout, switching company). */
  resHeaders: Headers;
  /** Pages (Remix actions) also keep a toast as a one-time flash for the page after the redirect. */
  flashToasts: boolean;
  /** Tells the session's user something: a toast in every open tab (and the flash, for pages). */
  notify: (type: Toast['type'], title: string, message?: string, opts?: { pageShowsItsOwn?: boolean }) => Promise<void>;
};

export function createContextInner(opts: {
  services: Services;
  session?: SessionInfo | null;
  requestId?: string;
  ip?: string;
}): Context {
  const ctx: Context = {
    services: opts.services,
    em: opts.services.orm.em.fork(),
    session: opts.session ?? null,
    requestId: opts.requestId ?? 'internal',
    ip: opts.ip ?? '127.0.0.1',
    resHeaders: new Headers(),
    flashToasts: false,
    async notify(type, title, message = '', notifyOpts = {}) {
      const session = ctx.session;
      if (!session) return;
      // A page that shows its own notice after the redirect needs no toast on top of it.
      if (ctx.flashToasts && notifyOpts.pageShowsItsOwn) return;
      const toast = newToast(type, title, message);
      if (ctx.flashToasts) await setFlash(ctx.em.fork(), session.id, toast);
      // The toast is a courtesy: a failing event channel must not fail the operation that succeeded.
      await opts.services.hub.publish({ kind: 'toast', userId: session.userId, toast }).catch((err) => opts.services.log.warn({ err }, 'toast not published'));
    },
  };
  return ctx;
}

export async function createContext(opts: {
  services: Services;
  headers: Headers;
  requestId: string;
  ip: string;
}): Promise<Context> {
  const ctx = createContextInner(opts);
  const raw = readSessionCookie(opts.headers.get('cookie'), opts.services.config.secureCookies);
  if (raw) ctx.session = await findSession(ctx.em, raw);
  return ctx;
}
