// Structured logging (pino): one JSON line per event, the request id on every request line. A logged error's stack
// names the TypeScript files and lines (./log-stacks.ts), in the built server too.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { stackMapper } from './log-stacks.ts';

export type Logger = pino.Logger;

// Built, this module is in build/node/index.js, beside the XLSX worker; run by tsx, it is server/log.ts, whose
// stacks tsx maps itself (no map beside it: nothing to do).
const here = fileURLToPath(import.meta.url);
const mappers = [here, path.join(path.dirname(here), 'xlsx-worker.js')].map((file) => stackMapper(file));
const mapStack = (stack: string) => mappers.reduce((s, map) => map(s), stack);

/** pino's error serializer, with the stack's frames named by their sources. */
function serializeError(err: Error) {
  const out = pino.stdSerializers.err(err);
  if (out && typeof out.stack === 'string') out.stack = mapStack(out.stack);
  return out;
}

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError },
  });
}
