// Recovery codes: ten single-use codes a user gets with their first passkey (and on asking for new ones), for
// when no passkey is at hand. Only their SHA-256 is stored; a code is shown once, when it is made. Wrong codes are
// rate limited per user and per client address.
import { createHash, randomInt } from 'node:crypto';
import { RecoveryCode, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { hit, type Limit } from './rate-limit.ts';

export const RECOVERY_CODE_COUNT = 10;
/** Tries of a code (right or wrong) per user and per address: a sign-in uses one, so this only bites guessing. */
export const RECOVERY_USER_LIMIT: Limit = { max: 10, windowMs: 15 * 60 * 1000 };
export const RECOVERY_IP_LIMIT: Limit = { max: 30, windowMs: 15 * 60 * 1000 };

// No 0/o, 1/l/i: a code is read off paper and typed. 31 symbols, 12 of them: about 59 bits.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newCode(): string {
  let raw = '';
  for (let i = 0; i < 12; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

/** The code as stored: lower case, without spaces and dashes, hashed. */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalized).digest('hex');
}

/** Replaces the user's codes with ten new ones (in the caller's transaction) and answers them, for showing once. */
export async function replaceRecoveryCodes(tx: Em, userId: number): Promise<string[]> {
  await tx.nativeDelete(RecoveryCode, { user: userId });
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  for (const code of codes)
    tx.create(RecoveryCode, { user: tx.getReference(User, userId), codeHash: hashRecoveryCode(code), usedAt: null });
  await tx.flush();
  return codes;
}

export async function unusedRecoveryCodes(em: Em, userId: number): Promise<number> {
  return em.count(RecoveryCode, { user: userId, usedAt: null });
}

export type RecoveryOutcome = 'ok' | 'wrong' | 'limited';

/**
 * Counts a try of a code towards the limits; false when over one. Outside the code's transaction: the counters
 * are plain statements on the entity manager's connection, and a try counts even when the rest rolls back.
 */
export async function recoveryTryAllowed(em: Em, userId: number, ip: string, now = new Date()): Promise<boolean> {
  if (!(await hit(em, `recovery:user:${userId}`, RECOVERY_USER_LIMIT, now))) return false;
  return hit(em, `recovery:ip:${ip}`, RECOVERY_IP_LIMIT, now);
}

/** Uses one of the user's codes: one atomic update, so two requests with one code cannot both succeed. */
export async function useRecoveryCode(tx: Em, userId: number, code: string, now = new Date()): Promise<boolean> {
  if (code.length > 40) return false;
  const used = await tx.nativeUpdate(
    RecoveryCode,
    { user: userId, codeHash: hashRecoveryCode(code), usedAt: null },
    { usedAt: now },
  );
  return used === 1;
}
