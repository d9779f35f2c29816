// The tRPC context: the services, a request-scoped entity manager and the session.
// createContextInner needs no HTTP request, so tests and scripts can build one directly.
import type { Em } from '../db/orm.js';
import { findSession, readSessionCookie, type SessionInfo } from '../auth/sessions.js';
import type { Services } from '../services.js';

export type Context = {
  services: Services;
  em: Em;
  session: SessionInfo | null;
  requestId: string;
  ip: string;
  /** Headers to add to the HTTP answer (Set-Cookie after login, logout, switching company). */
  resHeaders: Headers;
};

export function createContextInner(opts: {
  services: Services;
  session?: SessionInfo | null;
  requestId?: string;
  ip?: string;
}): Context {
  return {
    services: opts.services,
    em: opts.services.orm.em.fork(),
    session: opts.session ?? null,
    requestId: opts.requestId ?? 'internal',
    ip: opts.ip ?? '127.0.0.1',
    resHeaders: new Headers(),
  };
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
