// Every request body is read here once, for every route (REST, tRPC, forms, /auth/*), bounded by its route's
// limit, and judged as text (server/http/clean-text.ts); handlers then take req.rawBody.
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import getRawBody from 'raw-body';
import { DEFAULT_BODY_LIMIT } from '#domain/limits.ts';
import { t } from '#domain/texts/common.ts';
import { bodyProblem } from './clean-text.ts';
import { refuse } from './refusal.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The whole request body, read (and bounded) by guardBodies; undefined when the request had none. */
    rawBody?: Buffer;
  }
}

export { DEFAULT_BODY_LIMIT };

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
  // POST /api/network/usage: 10,000 usage records (USAGE_BATCH_MAX) with every optional field are about 3.5 MB,
  // pretty-printed by the mediation system up to about 5 MB.
  { path: /^\/api\/network\/usage\/?$/i, bytes: 8 * 1024 * 1024 },
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

type BodyRead = { kind: 'ok'; body: Buffer } | { kind: 'too large'; ended: boolean } | { kind: 'gone' };

/**
 * Reads a body of at most `limit` bytes (raw-body; `length` is its declared Content-Length). A larger one is never
 * kept: past the limit (for a declared length over it: from the first byte), it is read and dropped until it ends
 * or DRAIN_BYTES more came (then `ended` is false and the caller closes the connection).
 */
function readBody(req: IncomingMessage, limit: number, length: number | undefined): Promise<BodyRead> {
  return new Promise((resolve) => {
    // raw-body hears a client that leaves by the request's 'aborted' event; its 'close' before the end says so too.
    const onClose = () => {
      if (!req.complete) resolve({ kind: 'gone' });
    };
    req.once('close', onClose);
    getRawBody(req, { limit, length }).then(
      (body) => {
        req.off('close', onClose);
        resolve({ kind: 'ok', body });
      },
      (err: { type?: string; received?: number }) => {
        if (err.type !== 'entity.too.large') return resolve({ kind: 'gone' });
        // What came past the limit is counted and dropped: the client hears the 413 rather than a reset.
        let dropped = Math.max(0, (err.received ?? 0) - limit);
        req.on('data', (chunk: Buffer) => {
          dropped += chunk.length;
          if (dropped > DRAIN_BYTES) resolve({ kind: 'too large', ended: false });
        });
        req.once('end', () => resolve({ kind: 'too large', ended: true }));
        req.resume();
      },
    );
  });
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
  const declared = length === undefined ? undefined : Number(length);
  if (declared !== undefined && declared > limit + DRAIN_BYTES) return tooLarge(true);
  void readBody(req, limit, declared)
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
