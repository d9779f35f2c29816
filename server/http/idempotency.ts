// What the REST door reads of a write's `Idempotency-Key` (Stripe's convention; docs/api.md "Retries", decision
// 028): the key, checked, and the request it stands for. The procedure's own middleware does the rest
// (server/trpc/idempotency.ts): the key is part of the request's context, as its caller is.
import type { Request } from 'express';
import { Invalid } from '#domain/errors.ts';
import { tIdempotency } from '#domain/texts/idempotency.ts';
import { sha256, type IdempotentCall } from '#server/trpc/idempotency.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1 to 255 visible ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The request a key stands for: method, path and the raw body's SHA-256. */
export const requestHashOf = (req: Request) =>
  sha256(req.method, req.baseUrl + req.path, sha256(req.rawBody ?? Buffer.alloc(0))).toString('hex');

/** The Idempotency-Key of a request: null without one; a malformed one as its refusal (400), for the door to throw. */
export function idempotencyOf(req: Request): IdempotentCall | Invalid | null {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return null;
  if (!KEY_PATTERN.test(key)) return Invalid.field(IDEMPOTENCY_HEADER, tIdempotency.badKey);
  return { key, requestHash: requestHashOf(req) };
}
