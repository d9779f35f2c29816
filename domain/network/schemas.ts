// The network's integration keys and its usage feed: input and output schemas. Pure zod, so pages import them too.
import { tNetwork } from '#domain/texts/network.ts';
import { rowId, z } from '#domain/zod.ts';
import { USAGE_SOURCE_PATTERN } from '#domain/usage/source.ts';

export const NETWORK_KEY_NAME_MAX = 100;
/** A key's name is its records' source: the usage store's rule for a source's name. */
export const NETWORK_KEY_NAME_PATTERN = USAGE_SOURCE_PATTERN;
/** Live network keys at once: a handful of mediation systems, each rotated now and then. */
export const NETWORK_KEYS_MAX_ACTIVE = 20;
/** Records in one POST /api/network/usage (issue 39's contract). */
export const USAGE_BATCH_MAX = 10_000;

export const networkKeyName = z
  .string({ error: tNetwork.errors.name })
  .trim()
  .regex(NETWORK_KEY_NAME_PATTERN, tNetwork.errors.name);

export const networkKeyCreateInput = z.object({ name: networkKeyName });
export const networkKeyIdInput = z.object({ id: rowId(tNetwork.errors.notFound) });

export const networkKeyView = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'revoked']),
});
export type NetworkKeyView = z.infer<typeof networkKeyView>;

export const networkKeyCreated = z.object({ id: z.number(), key: z.string(), prefix: z.string() });
