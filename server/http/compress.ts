// The compression of answers made per request, at the levels of server/http/encoding.ts: in one go for an answer
// whole in memory (the REST paths' JSON, a page rendered in one turn), else streaming (a download, a page that
// streams). The event stream must reach the browser as it is written: never compressed.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL, encodingFor } from './encoding.ts';

/**
 * Brotli's window, in bits: 256 kB (the default is 22, 4 MB). The encoder sends nothing until it has taken about two
 * windows of input, and holds that input meanwhile: with 4 MB a download asked for with `gzip, br` (every browser)
 * kept 8 MB of its file in the compressor and gave its first byte only then (the list export of 200,000 to 1,000,000
 * SIMs: 1.3-2.0 s, against 30-70 ms uncompressed), and each such download held about 7 MB of encoder memory. With
 * 256 kB it sends after 0.5 MB and holds about 2 MB; the list's CSV comes out 4 % smaller (its rows repeat within a
 * few kB), and a page (tens of kB, all inside one window) comes out the same size.
 */
export const DYNAMIC_BROTLI_WINDOW_BITS = 18;

/** An answer of this type is worth compressing (compressible, and not the event stream). */
const worthCompressing = (req: Request, res: Response) =>
  !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res);

/** The streaming compression, for answers written in pieces (mounted for everything but the REST paths). */
export function compress(): RequestHandler {
  return compression({
    level: DYNAMIC_GZIP_LEVEL,
    brotli: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_LGWIN]: DYNAMIC_BROTLI_WINDOW_BITS,
      },
    },
    filter: worthCompressing,
  });
}

// An answer whole in memory is compressed in one go (brotli or gzip, from 1 kB, as the streaming middleware would
// choose) and written with its length, which the streaming middleware omits.
const COMPRESS_FROM_BYTES = 1024;
/**
 * From here an answer is compressed on libuv's threads, not on the event loop. Below it, in one call on the event loop:
 * Node's asynchronous zlib is a stream and a round trip to a worker thread, which for a page of 50 SIMs (22 kB of
 * JSON) cost 286 us of CPU against 75 us in one call (gzip at level 1; brotli at quality 4: 388 against 113 us);
 * at 90 kB 238 against 109 (brotli 1,117 against 274); only at 450 kB does the stream cost less CPU (716 against
 * 824). At 64 kB one call holds the event loop about 0.1 ms (gzip) to 0.2 ms (brotli): a page of SIMs with long
 * marks and notes, or a bulk call's results, go to the threads.
 */
export const ASYNC_COMPRESS_FROM_BYTES = 64 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } };
const GZIP = { level: DYNAMIC_GZIP_LEVEL };
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

// encodingFor of each Accept-Encoding value met (clients send a handful; negotiating anew was ~1 % of a list's CPU).
const encodings = new Map<string, 'br' | 'gzip' | null>();
function encodingOf(accept: string | undefined): 'br' | 'gzip' | null {
  const known = accept === undefined ? null : encodings.get(accept);
  if (known !== undefined || accept === undefined) return known ?? null;
  const encoding = encodingFor(accept);
  if (encodings.size < 64) encodings.set(accept, encoding); // bounded: odd values cannot grow it
  return encoding;
}

/** Adds Accept-Encoding to the answer's Vary (a page's own Vary stays). */
function varyOnEncoding(res: Response): void {
  const vary = String(res.getHeader('Vary') ?? '');
  if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary))
    res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Ends the answer with `body`, its whole content, compressed in one go where the client takes it and the type is
 * worth it (as the streaming middleware decides: not below 1 kB, not already encoded, not HEAD, not
 * `no-transform`), with its Content-Length. `end` is the response's own end (the REST door replaces res.end).
 */
export function endInOneGo(req: Request, res: Response, body: Buffer, end: (chunk: Buffer) => unknown): void {
  const encoding =
    body.length < COMPRESS_FROM_BYTES ||
    res.getHeader('Content-Encoding') ||
    req.method === 'HEAD' ||
    NO_TRANSFORM.test(String(res.getHeader('Cache-Control') ?? '')) ||
    !worthCompressing(req, res)
      ? null
      : encodingOf(req.headers['accept-encoding']);
  if (body.length >= COMPRESS_FROM_BYTES) varyOnEncoding(res);
  const send = (out: Buffer) => {
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', out.length);
    end(out);
  };
  if (!encoding) send(body);
  else if (body.length < ASYNC_COMPRESS_FROM_BYTES)
    send(encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP));
  // A large answer (a full page of long marks, a bulk call's 1,000 results) is compressed off the event loop.
  else
    void (encoding === 'br' ? brotliAsync(body, BROTLI) : gzipAsync(body, GZIP)).then(send, (err: unknown) =>
      res.destroy(err as Error),
    );
}
