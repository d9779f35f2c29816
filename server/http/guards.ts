// What every request passes before any page, form action or procedure sees it: a well-formed Host, text
// without NUL bytes and in valid UTF-8 (path, query, body), and a body of bounded size, read here once for
// every route (REST, tRPC, forms, /auth/*). A refusal is Swedish: { error, issues } for API and fetch callers,
// a small page for a browser navigation.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { mediaTypeOf } from './media-type.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The whole request body, read (and bounded) by guardBodies; undefined when the request had none. */
    rawBody?: Buffer;
  }
}

export const DEFAULT_BODY_LIMIT = 100 * 1024;

/** /api/trpc/<procedures>: a call or a batch of calls that are all bulk procedures of SIMs. */
const TRPC_BULK =
  /^\/api\/trpc\/(?:sim\.bulk(?:Activate|ActivateChunk|ActivateSummary|Deactivate),)*sim\.bulk(?:Activate|ActivateChunk|ActivateSummary|Deactivate)\/?$/;

/**
 * Routes whose body limit is not the default, first match wins. The one place a future upload route
 * sets its own limit, e.g. `{ path: /^\/sims\/import$/, bytes: 5 * 1024 * 1024 }`.
 */
const BODY_LIMITS: Array<{ path: RegExp; bytes: number }> = [
  // Bulk lists of up to 10,000 rows (BULK_MAX, domain/sims/limits.ts), each door sized to its largest honest list.
  // /add/bulk: a file of up to 4 MB (BULK_FILE_MAX_BYTES; a larger one gets the page's own message up to this
  // limit), or the preview's hidden list of a file's 10,000 rows as JSON with their own marks (the file's text and
  // about 70 bytes of JSON a row). With JS, Remix posts to /add/bulk.data.
  { path: /^\/add\/bulk(\.data)?\/?$/, bytes: 6 * 1024 * 1024 },
  // /add/bulk/result: the result's 10,000 [ICCID, outcome] pairs posted back to be formatted as a file (an ICCID
  // cell as the file had it, at most 100 characters: about 1.3 MB at most, 0.5 MB for 20-digit ICCIDs).
  { path: /^\/add\/bulk\/result\/?$/, bytes: 1536 * 1024 },
  // POST /api/sim/bulk: 10,000 ICCIDs are about 250 kB; 10,000 rows with their own mark and comment of 200
  // characters each (Swedish letters are two bytes) about 5.5 MB.
  { path: /^\/api\/sim\/bulk\/?$/i, bytes: 6 * 1024 * 1024 },
  // POST /api/sim/bulk/deactivate: 10,000 ids of up to 10 digits, even pretty-printed, stay under 200 kB.
  { path: /^\/api\/sim\/bulk\/deactivate\/?$/i, bytes: 256 * 1024 },
  // tRPC calls of the bulk procedures only (the browser's /add/bulk with JS): the live preview sends its whole
  // list of up to 10,000 ICCIDs (about 250 kB), a chunk far less, the summary up to 10,000 ids.
  { path: TRPC_BULK, bytes: 512 * 1024 },
];

export function bodyLimitFor(path: string): number {
  return BODY_LIMITS.find((l) => l.path.test(path))?.bytes ?? DEFAULT_BODY_LIMIT;
}

// Past the limit a body is still read (and dropped) up to this much more, so a client that is still sending
// receives the 413 rather than a reset connection; beyond it the connection is closed.
const DRAIN_BYTES = 1024 * 1024;
/** After a 413 to a body still arriving: how long, and how much more, is read and dropped before the close. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Closes the connection of an answer given while the request's body is still arriving, as nginx's
 * lingering_close does: the answer and the end of our side go out, then what the client still sends is read and
 * dropped for up to LINGER_MS (LINGER_BYTES) before the socket is destroyed. Destroying it at once, with unread
 * bytes, makes the kernel reset the connection, and the client can lose the answer it was about to read.
 */
function lingeringClose(req: IncomingMessage): void {
  const socket = req.socket;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  // Node ends a `Connection: close` answer with socket.destroySoon(): destroy once written. Here: end our side
  // once written, and destroy when the client has closed its side too or after LINGER_MS.
  socket.destroySoon = function (this: typeof socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

/** A browser's navigation (a link, a form without JS) as opposed to fetch() or an API client, on any path. */
export function isNavigation(req: { get: (name: string) => string | undefined }): boolean {
  const mode = req.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (req.get('accept') ?? '').includes('text/html');
}

/** A browser navigation to a page (not an /api path: those answer JSON, but for the downloads). */
export function wantsPage(req: Request): boolean {
  if (/^\/api(\/|$)/i.test(req.path)) return false;
  return isNavigation(req);
}

/** A small standalone page (no Remix), styled by the CSP nonce of this response (a Response, or the nonce). */
export function plainPage(res: Response | string, title: string, body: string): string {
  const value = typeof res === 'string' ? res : res.locals.cspNonce;
  const nonce = typeof value === 'string' && value ? ` nonce="${value}"` : '';
  return `<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style${nonce}>body{font-family:system-ui,sans-serif;background:#0f1115;color:#e8eaef;padding:2rem}a{color:#5b9dff}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

/**
 * A refusal as a page for a browser's navigation: its status and headers (Retry-After of a 503), the Swedish message
 * and a link to try again. The answer of the one translation (server/http/answer.ts httpError).
 */
export function sendErrorPage(
  res: Response,
  answer: { status: number; headers: Record<string, string>; body: { error: string } },
): void {
  const title = answer.status === 503 ? t.errors.databaseDownTitle : t.refused.title;
  res
    .status(answer.status)
    .set({ ...answer.headers, 'Cache-Control': 'no-store' })
    .type('html')
    .send(plainPage(res, title, `<p>${answer.body.error}</p><p><a href="">${t.errors.retry}</a></p>`));
}

/** Refuses a request before any handler: JSON { error, issues } or, for a browser navigation, a page. */
export function refuse(req: Request, res: Response, status: number, message: string): void {
  res.status(status).set('Cache-Control', 'no-store');
  if (wantsPage(req)) {
    res.type('html').send(plainPage(res, t.refused.title, `<p>${message}</p><p><a href="/">${t.refused.back}</a></p>`));
  } else {
    res.json({ error: message, issues: [] });
  }
}

// A host name (letters, digits, -, _ and dots), an IPv4 address or a bracketed IPv6 address, with an optional port.
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

export function validHost(host: string | undefined): boolean {
  if (!host || host.length > 255) return false;
  const m = HOST.exec(host);
  return !!m && (m[1] === undefined || Number(m[1]) <= 65535);
}

/** The bytes a URL-encoded text stands for: %XX decoded, + as a space where form-encoded, other characters as they came. */
function percentDecoded(raw: string, plusIsSpace: boolean): Buffer {
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-f]{2}$/i.test(raw.slice(i + 1, i + 3))) {
      out[n++] = parseInt(raw.slice(i + 1, i + 3), 16);
      i += 2;
    } else if (c === 0x2b && plusIsSpace) out[n++] = 0x20;
    else if (c > 0xff)
      return Buffer.from([0xff]); // not a byte: never valid
    else out[n++] = c;
  }
  return out.subarray(0, n);
}

const cleanBytes = (b: Buffer): boolean => !b.includes(0) && isUtf8(b);
// isWellFormed (ES2024, in Node 20+): no lone UTF-16 surrogate, which no UTF-8 text could carry.
const cleanString = (s: string): boolean =>
  !s.includes('\0') && (s as string & { isWellFormed(): boolean }).isWellFormed();

/** A Buffer as fetch's BodyInit. */
export const bytesOf = (b: Buffer): Uint8Array<ArrayBuffer> =>
  new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.length);

/** Every string (keys too) in a parsed JSON value is clean; walked without recursion (nesting may be deep). */
function cleanJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!cleanString(v)) return false;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (!cleanString(k)) return false;
        stack.push(x);
      }
    }
  }
  return true;
}

/** JSON inside text (a tRPC `input` in the query) may carry \u0000 or a lone surrogate as an escape. */
function cleanIfJson(text: string): boolean {
  if (!/^\s*[[{"]/.test(text)) return true;
  try {
    return cleanJson(JSON.parse(text));
  } catch {
    return true; // not JSON after all: the handler refuses it in its own words
  }
}

/** Path and query: valid UTF-8 without NUL once percent-decoded, and no escaped NUL in JSON values. */
export function cleanUrl(url: string): boolean {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (!cleanBytes(percentDecoded(path, false)) || !cleanBytes(percentDecoded(query, true))) return false;
  for (const value of new URLSearchParams(query).values()) if (!cleanIfJson(value)) return false;
  return true;
}

/**
 * What is wrong with a body (text with NUL or bad UTF-8, an unreadable form), or null. Every body is judged,
 * whatever its Content-Type says (server/http/media-type.ts): a form by its decoded bytes, multipart by its text
 * fields, anything else as UTF-8 text (no door takes binary bytes but a multipart file), a JSON one also by the
 * strings its escapes make.
 */
export async function bodyProblem(header: string, body: Buffer): Promise<string | null> {
  const { kind } = mediaTypeOf(header);
  const text = (clean: boolean) => (clean ? null : t.refused.badText);
  if (kind === 'form') return text(cleanBytes(percentDecoded(body.toString('latin1'), true)));
  if (kind === 'multipart') {
    let form: FormData;
    try {
      form = await new Response(bytesOf(body), { headers: { 'content-type': header } }).formData();
    } catch {
      return t.refused.badForm; // Remix's actions would fail on it with a 500
    }
    let files = false;
    for (const value of form.values()) {
      if (typeof value === 'string') {
        if (!cleanString(value)) return t.refused.badText;
      } else files = true;
    }
    // Without files the whole body is text; with files only the text fields can be judged.
    return text(files || isUtf8(body));
  }
  return text(cleanBytes(body) && cleanIfJson(body.toString('utf8')));
}

type BodyRead = { kind: 'ok'; body: Buffer } | { kind: 'too large'; ended: boolean } | { kind: 'gone' };

/** Reads a body of at most `limit` bytes; a larger one is counted and dropped, never kept. */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size <= limit) chunks.push(chunk);
      else if (!over) {
        over = true;
        chunks.length = 0;
      }
      if (over && size > limit + DRAIN_BYTES) resolve({ kind: 'too large', ended: false });
    });
    req.on('end', () =>
      resolve(over ? { kind: 'too large', ended: true } : { kind: 'ok', body: Buffer.concat(chunks, size) }),
    );
    req.on('error', () => resolve({ kind: 'gone' }));
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'gone' });
    });
  });
}

/** A malformed Host is refused (request URLs are built from it), and so is a path or query with NUL or bad UTF-8. */
export function guardUrls(req: Request, res: Response, next: NextFunction): void {
  if (!validHost(req.headers.host)) return refuse(req, res, 400, t.refused.badHost);
  if (!cleanUrl(req.originalUrl)) return refuse(req, res, 400, t.refused.badText);
  next();
}

/**
 * Reads every request body here, bounded by its route's limit (by Content-Length up front, and by counting
 * what arrives, for chunked bodies), and checks its text; handlers then take req.rawBody.
 */
export function guardBodies(req: Request, res: Response, next: NextFunction): void {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return next();
  const limit = bodyLimitFor(req.path);
  const tooLarge = (close: boolean) => {
    if (close) {
      res.set('Connection', 'close');
      lingeringClose(req);
    }
    refuse(req, res, 413, t.refused.tooLarge(Math.round(limit / 1024)));
  };
  // A declared length over the limit is refused without keeping a byte; up to DRAIN_BYTES of it are read
  // and dropped first so the client hears the 413, a larger one is answered at once and the connection closed.
  const declaredTooLarge = Number(length) > limit;
  if (Number(length) > limit + DRAIN_BYTES) return tooLarge(true);
  void readBody(req, declaredTooLarge ? 0 : limit)
    .then(async (read) => {
      if (read.kind === 'gone') return void res.destroy(); // the client went away: nobody to answer
      if (read.kind === 'too large') return tooLarge(!read.ended);
      const problem = await bodyProblem(req.get('content-type') ?? '', read.body);
      if (problem) return refuse(req, res, 400, problem);
      req.rawBody = read.body;
      next();
    })
    .catch(next);
}

/** Pages whose actions read a JSON body as well as a form: the login forms (app/utils/login-input.server.ts). */
const JSON_PAGES = /^\/(?:auth\/)?login(?:\.data)?\/?$/i;
/** Pages whose actions read no body at all (a confirmation's button, logout): whatever is sent is ignored. */
const BODYLESS_PAGES =
  /^\/(?:auth\/(?:logout|own-company)|sims\/\d+\/deactivate|company\/(?:api-keys\/\d+\/revoke|users\/\d+\/remove|webhooks\/\d+\/delete))(?:\.data)?\/?$/i;

/**
 * A body posted to a page (a Remix action, which reads request.formData()) must be a form it can read: URL-encoded,
 * or multipart that parses; JSON only where the action reads JSON (server/http/media-type.ts says which is which). A post
 * with no body and no type is an empty form (a client that only posts, as logout's spec does). Anything else is
 * refused here with 415, where request.formData() would have thrown: a 500.
 */
export async function guardForms(req: Request, res: Response, next: NextFunction): Promise<void> {
  if (['GET', 'HEAD', 'OPTIONS'].includes(req.method) || /^\/api(\/|$)/i.test(req.path)) return next();
  if (BODYLESS_PAGES.test(req.path)) return next();
  const header = req.get('content-type');
  const { kind } = mediaTypeOf(header);
  if (kind === 'none' && !req.rawBody?.length) {
    req.headers['content-type'] = 'application/x-www-form-urlencoded';
    return next();
  }
  if (kind === 'form' || (kind === 'json' && JSON_PAGES.test(req.path))) return next();
  if (kind === 'multipart') {
    // A body with text was parsed by guardBodies already; an empty one (or none) must parse as well.
    if (req.rawBody?.length) return next();
    try {
      await new Response(new Uint8Array(0), { headers: { 'content-type': header! } }).formData();
      return next();
    } catch {
      return refuse(req, res, 400, t.refused.badForm);
    }
  }
  refuse(req, res, 415, t.refused.notAForm);
}
