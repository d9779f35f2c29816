// The streaming compression of answers made per request (pages, the list export, the rest of the API), at the
// levels of server/http/encoding.ts. The event stream must reach the browser as it is written: never compressed.
import { constants as zlibConstants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_GZIP_LEVEL } from './encoding.ts';

export function compress(): RequestHandler {
  return compression({
    level: DYNAMIC_GZIP_LEVEL,
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    filter: (req, res) =>
      !String(res.getHeader('Content-Type') ?? '').includes('text/event-stream') && compression.filter(req, res),
  });
}
