// The streaming compression of answers made per request (pages, the list export, the rest of the API), at the
// levels of server/http/encoding.ts. The event stream must reach the browser as it is written: never compressed.
import { constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL } from './encoding.ts';

/**
 * Brotli's window, in bits: 256 kB (the default is 22, 4 MB). The encoder sends nothing until it has taken about two
 * windows of input, and holds that input meanwhile: with 4 MB a download asked for with `gzip, br` (every browser)
 * kept 8 MB of its file in the compressor and gave its first byte only then (the list export of 200,000 to 1,000,000
 * SIMs: 1.3-2.0 s, against 30-70 ms uncompressed), and each such download held about 7 MB of encoder memory. With
 * 256 kB it sends after 0.5 MB and holds about 2 MB; the list's CSV comes out 4 % smaller (its rows repeat within a
 * few kB), and a page (tens of kB, all inside one window) comes out the same size.
 */
export const DYNAMIC_BROTLI_WINDOW_BITS = 18;

export function compress(): RequestHandler {
  return compression({
    level: DYNAMIC_GZIP_LEVEL,
    brotli: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_LGWIN]: DYNAMIC_BROTLI_WINDOW_BITS,
      },
    },
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res),
  });
}
