// The stored first answers of REST requests sent with an Idempotency-Key (server/trpc/idempotency.ts): one row
// per caller and key, written in the same transaction as the request's work, kept 24 hours (the purge deletes
// older ones). Neither the key nor the answer is stored readable: the key as its SHA-256, the answer encrypted
// with a key derived from the Idempotency-Key (an answer may hold a secret shown only once, e.g. a new API key).
import { defineEntity, p } from '@mikro-orm/core';

/** How long a stored answer is replayed (Stripe's 24 hours); the purge deletes older ones. */
export const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60 * 1000;

export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  properties: {
    // The caller: "apiKey:<id>", or "user:<id>@<company id>" for a session (the company it acts for).
    scope: p.string().length(100).primary(),
    keyHash: p.string().length(64).primary(),
    // SHA-256 of the method, the path and the SHA-256 of the raw body.
    requestHash: p.string().length(64),
    status: p.smallint(),
    // base64 of AES-256-GCM (iv, tag, ciphertext) of the JSON answer.
    body: p.text(),
    link: p.string().length(2000).nullable(),
    createdAt: p.datetime().index(),
  },
});
export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);
