// Remix for pages, form posts and the export download: the request as Remix sees it (with the body the guards
// read), the load context, the signed-in user's budgets (as on the API), and its answer written to the Express
// response.
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import type { Request, RequestHandler, Response } from 'express';
import type { Services } from '#server/services.ts';
import { drained } from '#server/files/streams.ts';
import { DATABASE_RETRY_AFTER_SECONDS, errorBody } from './answer.ts';
import { RateLimited, spendSessionBudgets } from './rate-limits.ts';
import { asyncHandler } from './async-handler.ts';
import { endInOneGo } from './compress.ts';
import { bytesOf, validHost } from './clean-text.ts';
import { isNavigation, sendErrorPage } from './refusal.ts';
import { loadContextFor, requestSignal } from './request-context.ts';

export type BuildSource =
  { build: ServerBuild } | { dev: { middlewares: RequestHandler; loadBuild: () => Promise<ServerBuild> } };

/** The request as Remix sees it; its body is the one guardBodies read (bounded), not the socket. */
function remixRequest(req: Request, res: Response): globalThis.Request {
  // X-Forwarded-Host only from a proxy that TRUST_PROXY trusts, and only when well-formed.
  const forwarded = req.app.get('trust proxy fn')(req.socket.remoteAddress, 0)
    ? req.get('x-forwarded-host')?.split(',')[0]?.trim()
    : undefined;
  const host = forwarded && validHost(forwarded) ? forwarded : req.get('host');
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const rawBody = req.method !== 'GET' && req.method !== 'HEAD' ? req.rawBody : undefined;
  return new Request(`${req.protocol}://${host}${req.originalUrl}`, {
    method: req.method,
    headers,
    // Aborts loaders and actions once the answer can no longer be written.
    signal: requestSignal(req, res),
    body: rawBody !== undefined ? bytesOf(rawBody) : undefined,
  });
}

/** Pieces of an answer gathered into one write at most (a larger body goes out in writes of this size). */
const WRITE_BYTES = 64 * 1024;

/**
 * Writes a Remix answer's body to the response. React streams a page in 2 kB pieces, and Remix's own writer
 * (writeReadableStreamToWritable) sends each alone and flushes the compression stream after it: 17 passes through
 * zlib for the 35 kB of /sims, 0.8 ms of CPU against 0.18 ms for one pass. Here the pieces that are ready in one
 * turn of the event loop go out as one write and one flush (the last ones with the end, unflushed); a piece that
 * comes later (a download read from the database as it is sent) still goes out as soon as it comes. A slow client
 * holds the reading (the answer never piles up in memory), and one that leaves stops it.
 */
async function writeBody(body: ReadableStream<Uint8Array>, req: Request, res: Response): Promise<void> {
  const reader = body.getReader();
  res.once('close', () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  const nextTurn = () => new Promise<false>((resolve) => setImmediate(resolve, false));
  let pieces: Uint8Array[] = [];
  let size = 0;
  let sent = false;
  const take = (): Uint8Array => {
    const [only] = pieces;
    const data = pieces.length === 1 && only ? only : Buffer.concat(pieces, size);
    pieces = [];
    size = 0;
    return data;
  };
  const send = async () => {
    if (size === 0) return;
    const data = take();
    sent = true;
    if (res.destroyed) return;
    const more = res.write(data);
    // The compression middleware's flush: what was written reaches the client now, not when zlib's buffer fills.
    (res as Response & { flush?: () => void }).flush?.();
    if (!more) await drained(res);
  };
  try {
    let next = reader.read();
    for (;;) {
      const piece = await next;
      if (piece.done) break;
      pieces.push(piece.value);
      size += piece.value.byteLength;
      next = reader.read();
      // The next piece already there (React's pieces of one render are): keep gathering, up to WRITE_BYTES.
      const ready = await Promise.race([
        next.then(
          () => true,
          () => true,
        ),
        nextTurn(),
      ]);
      if (!ready || size >= WRITE_BYTES) await send();
    }
    // The last pieces go out with the end: zlib's one pass finishes the stream, with no flush before it. A whole
    // answer in them (a page, most often) is compressed in one call and sent with its length, not through the stream.
    const last = size > 0 ? take() : null;
    if (last && !sent && !res.destroyed)
      endInOneGo(req, res, Buffer.from(last.buffer, last.byteOffset, last.byteLength), (b) => res.end(b));
    else if (last && !res.destroyed) res.end(last);
    else res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

/**
 * What of a signed-in user's requests to Remix spends the user's and the company's budgets (docs/decisions/030):
 * all of them, one each: a page, its data request (`.data`, single fetch), a form post, a download, so a script
 * cannot go on through the pages when the API refuses it; a person clicking makes a few a minute, far from the
 * budget. Not Remix's route manifest (lazy route discovery, asked as links appear: no user data, cached a year),
 * and not signing out, which a user over the budget must still be able to do.
 */
const countsAgainstBudget = (req: Request) => req.path !== '/__manifest' && req.path !== '/auth/logout';

/** Over budget: 429 with Retry-After, as a small page for a browser's navigation, else JSON { error, issues }. */
function refuseOverBudget(req: Request, res: Response, err: RateLimited): void {
  const answer = {
    status: 429,
    headers: { 'Retry-After': String(err.retryAfterSeconds) },
    body: errorBody(err.message),
  };
  if (isNavigation(req)) return sendErrorPage(res, answer);
  res
    .status(429)
    .set({ ...answer.headers, 'Cache-Control': 'no-store' })
    .json(answer.body);
}

/**
 * Remix for pages, form posts and the export download. Anything answered to a logged-in browser (a page, its
 * `.data` loader fetch, the download) or setting a cookie is `no-store`, so the back button after logout
 * shows no cached page; Remix's route manifest is not a user's and keeps its own cache header. A route's own
 * header replaces the default of the same name (Referrer-Policy of the login-link page).
 */
export function remixHandler(
  services: Services,
  build: BuildSource,
  mode: 'production' | 'development',
): RequestHandler {
  const handle = createRequestHandler('dev' in build ? build.dev.loadBuild : build.build, mode);
  return asyncHandler(async (req, res) => {
    const request = remixRequest(req, res);
    const context = await loadContextFor(services, req, res);
    if (context.session && countsAgainstBudget(req)) {
      try {
        await spendSessionBudgets(services, context.ctx.em, req, context.session, 1, 'page');
      } catch (err) {
        if (!(err instanceof RateLimited)) throw err;
        return refuseOverBudget(req, res, err);
      }
    }
    const response = await handle(request, context);
    if (response.statusText) res.statusMessage = response.statusText;
    res.status(response.status);
    for (const [key, value] of response.headers) if (key !== 'set-cookie') res.setHeader(key, value);
    // A page whose database was out of reach (pageCaller): when to try again, as the API says it.
    if (response.status === 503 && !response.headers.has('retry-after'))
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader('Set-Cookie', cookies);
    // Remix's route manifest (/__manifest?version=<build hash>&p=<paths>, lazy route discovery) holds no user
    // data and is content-addressed: it keeps Remix's own year-long public, immutable cache.
    const manifest = req.path === '/__manifest' && response.status === 200 && !cookies.length;
    if (
      !manifest &&
      (context.session || cookies.length) &&
      !String(res.getHeader('Cache-Control') ?? '').includes('no-store')
    ) {
      res.setHeader('Cache-Control', 'no-store');
    }
    if (response.body) await writeBody(response.body, req, res);
    else res.end();
  });
}
