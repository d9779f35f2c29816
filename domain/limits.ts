// Limits every door shares: the bound of a request body that names no limit of its own (server/http/bodies.ts
// applies it, per route; a refusal's text names it, server/trpc/errors.ts).
export const DEFAULT_BODY_LIMIT = 100 * 1024;
