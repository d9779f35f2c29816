// Recognises "the database cannot be reached" or "cannot keep up" (as opposed to a bug), so the server can answer
// 503 with Retry-After: a lost connection, a saturated pool (db/overload.ts), a statement cancelled by its
// timeout or because its client went away (query_canceled), too many connections.
const NETWORK_CODES = new Set([
  'POOL_SATURATED',
  '57014',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const NETWORK_TEXT =
  /Connection terminated|connection (?:is )?closed|Client has encountered a connection error|timeout exceeded when trying to connect|the database system is (?:starting up|shutting down)/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown; errors?: unknown[] };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'ConnectionException') return true;
  if (typeof e.message === 'string' && NETWORK_TEXT.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
