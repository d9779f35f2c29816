// Input and output schemas of a company's API keys. Pure zod, so the pages import them too.
import { defined } from '#domain/defined.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from './limits.ts';
import { rowId, z } from '#domain/zod.ts';

const e = tApiKeys.errors;
export { API_KEY_NAME_MAX } from './limits.ts';

/** The Stockholm offset from UTC in minutes at a moment (60 or 120). */
function stockholmOffsetMinutes(at: Date): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Stockholm', timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  const name = defined(part, 'the time zone name of Intl.DateTimeFormat').value; // "GMT+1"
  const m = /GMT([+-]\d+)/.exec(name);
  return m ? Number(m[1]) * 60 : 0;
}

/** A date YYYY-MM-DD as the end of that day in Stockholm; a full ISO time as itself. */
export function expiryOf(value: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const midnightUtc = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(midnightUtc.getTime())) return null;
    const nextDay = midnightUtc.getTime() + 24 * 60 * 60 * 1000;
    return new Date(nextDay - stockholmOffsetMinutes(new Date(nextDay)) * 60 * 1000);
  }
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export const apiKeyScope = z.enum(API_KEY_SCOPES, { error: e.scope });

export const apiKeyCreateInput = z.object({
  name: z.string({ error: e.name }).trim().min(1, e.name).max(API_KEY_NAME_MAX, e.name),
  scope: apiKeyScope,
  /** Optional: a date (YYYY-MM-DD, the key works through that day, Stockholm time) or an ISO 8601 time. */
  expiresAt: z
    .string({ error: e.expiresAt })
    .trim()
    .max(40, e.expiresAt)
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const d = expiryOf(v);
      if (!d || d.getTime() <= Date.now()) {
        ctx.addIssue({ code: 'custom', message: e.expiresAt });
        return z.NEVER;
      }
      return d;
    }),
});

export const apiKeyIdInput = z.object({
  id: rowId(e.notFound),
});

export const apiKeyOutput = z.object({
  id: z.number(),
  name: z.string(),
  scope: apiKeyScope,
  /** The key's first characters ("sp_" and 8 more), to tell keys apart; never the key. */
  prefix: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKeyView = z.infer<typeof apiKeyOutput>;

export const apiKeyCreatedOutput = z.object({
  id: z.number(),
  /** The key itself: answered only this once, never stored. */
  key: z.string(),
  prefix: z.string(),
});
