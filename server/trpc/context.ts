// The tRPC context: the services, a request-scoped entity manager and the caller (a session or an API key).
// createContextInner needs no HTTP request, so tests and scripts can build one directly; every HTTP door builds
// its context with server/http/request-context.ts (requestContext), which finds the caller and then calls it.
// A context is not changed once made: what a door knows of the request is given here.
import type { ApiKeyCaller } from '#server/api-keys/keys.ts';
import type { NetworkKeyCaller } from '#server/network/keys.ts';
import type { Em } from '#server/db/orm.ts';
import { findSession, readSessionCookie, setFlash, type SessionInfo } from '#server/auth/sessions.ts';
import { newToast, type HubEvent, type Toast } from '#server/events/hub.ts';
import type { Services } from '#server/services.ts';

/** What a door read of an idempotent request: the caller's Idempotency-Key and the request it stands for. */
export type IdempotentCall = { key: string; requestHash: string };

export type Context = {
  services: Services;
  em: Em;
  /** A signed-in session (stage full); anything else is no session to the procedures. */
  session: SessionInfo | null;
  /**
   * A session still signing in (the passkey after the link, or a passkey to add first): only the passkey and
   * logout procedures read it; to every other procedure and page the caller is signed out.
   */
  pending: SessionInfo | null;
  /** A request made with `Authorization: Bearer <key>` (the REST paths and the list export only; never with a session). */
  apiKey: ApiKeyCaller | null;
  /** A request made with the network's integration key (`Bearer sn_...`): it can only send usage (decision 034). */
  networkKey: NetworkKeyCaller | null;
  requestId: string;
  ip: string;
  /** The request's User-Agent ('' when none): a new session records it for the security page. */
  userAgent: string;
  /** A REST write's Idempotency-Key and the request it stands for (the procedure's `idempotent` middleware). */
  idempotency: IdempotentCall | null;
  /** Aborted when the HTTP client has gone away (a search still running for it is cancelled in the database). */
  signal?: AbortSignal;
  /** Headers to add to the HTTP answer (Set-Cookie after login, logout, switching company). */
  resHeaders: Headers;
  /**
   * How this door shows what a procedure tells the user: 'live' sends each toast to the user's open tabs at
   * once (the API doors); 'held' keeps them in `toasts` until the page's action decides (`showToasts`).
   */
  toastMode: 'live' | 'held';
  /** The toasts held back in this request, oldest first. */
  toasts: Toast[];
  /** Tells the session's user something; procedures call it and leave the showing to the door. */
  notify: (type: Toast['type'], title: string, message?: string) => Promise<void>;
  /**
   * Tells the open pages of others that something changed (new usage for a company's pages): sent once the
   * procedure's work is committed (the idempotent middleware holds it until its commit), a failure only logged.
   */
  announce: (event: HubEvent) => Promise<void>;
  /**
   * For a page's action: sends the held toasts to the open tabs, and with `flash` keeps the last as a
   * one-time flash for the page after the redirect (so it shows without JS too). A page with a notice of
   * its own does not call it.
   */
  showToasts: (opts: { flash: boolean }) => Promise<void>;
};

export function createContextInner(opts: {
  services: Services;
  /** The request's entity manager, when the caller was looked up with it (else a new fork). */
  em?: Em;
  /** The request's session, of any stage: only a full one is `session`, one still signing in is `pending`. */
  session?: SessionInfo | null;
  apiKey?: ApiKeyCaller | null;
  networkKey?: NetworkKeyCaller | null;
  requestId?: string;
  userAgent?: string;
  ip?: string;
  toastMode?: Context['toastMode'];
  signal?: AbortSignal;
  idempotency?: IdempotentCall | null;
}): Context {
  const found = opts.session ?? null;
  const ctx: Context = {
    services: opts.services,
    em: opts.em ?? opts.services.orm.em.fork(),
    // A full session is the caller's session; one still signing in is only `pending`.
    session: found?.stage === 'full' ? found : null,
    pending: found && found.stage !== 'full' ? found : null,
    apiKey: opts.apiKey ?? null,
    networkKey: opts.networkKey ?? null,
    requestId: opts.requestId ?? 'internal',
    ip: opts.ip ?? '127.0.0.1',
    userAgent: opts.userAgent ?? '',
    signal: opts.signal,
    idempotency: opts.idempotency ?? null,
    resHeaders: new Headers(),
    toastMode: opts.toastMode ?? 'live',
    toasts: [],
    async notify(type, title, message = '') {
      if (!ctx.session) return;
      const toast = newToast(type, title, message);
      if (ctx.toastMode === 'held') ctx.toasts.push(toast);
      else await publish(toast);
    },
    announce: (event) =>
      opts.services.hub.publish(event).catch((err) => opts.services.log.warn({ err }, 'event not published')),
    async showToasts({ flash }) {
      const session = ctx.session;
      const toasts = ctx.toasts.splice(0);
      if (!session || !toasts.length) return;
      // The flash and the live event carry one id: a tab with JS shows the toast once.
      const last = toasts.at(-1);
      if (flash && last) await setFlash(ctx.em.fork(), session.id, last);
      for (const toast of toasts) await publish(toast);
    },
  };
  // The toast is a courtesy: a failing event channel must not fail the operation that succeeded.
  const publish = (toast: Toast) =>
    ctx.session
      ? opts.services.hub
          .publish({ kind: 'toast', userId: ctx.session.userId, toast })
          .catch((err) => opts.services.log.warn({ err }, 'toast not published'))
      : Promise.resolve();
  return ctx;
}

export async function createContext(opts: {
  services: Services;
  /** The request's Cookie header (the HTTP doors pass it as it came) ... */
  cookie?: string | null;
  /** ... or the request's headers (scripts and tests), of which only the cookie counts. */
  headers?: Headers;
  requestId: string;
  ip: string;
  userAgent?: string;
  toastMode?: Context['toastMode'];
  signal?: AbortSignal;
}): Promise<Context> {
  const em = opts.services.orm.em.fork();
  const cookie = opts.cookie !== undefined ? opts.cookie : (opts.headers?.get('cookie') ?? null);
  const raw = readSessionCookie(cookie, opts.services.config.secureCookies);
  const session = raw ? await findSession(em, raw) : null;
  return createContextInner({ ...opts, em, session });
}
