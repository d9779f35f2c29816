// The offline queue of /add/bulk: scanned ICCIDs kept in this browser's localStorage from the
// moment they are scanned, so a reload, a closed tab or a lost network loses none. The key names the user
// and the company they act for (a value the loader gives), so another user on the same device never sees
// them. Pure apart from the Storage passed in: unit tests give a Map-backed one.

import { BULK_MAX } from '#domain/sims/limits.ts';

/** The most a list holds: BULK_MAX of the procedure's schema (limits.ts imports nothing, so no zod reaches the browser). */
export const QUEUE_MAX = BULK_MAX;

export type QueueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'sim-portal:bulk-queue:';
/** What one stored code may be: an ICCID as scanned (digits), never anything longer. */
const CODE = /^\d{1,30}$/;

export const queueKey = (owner: string) => `${PREFIX}${owner}`;

/** The ICCIDs of a list text: separated by line breaks, spaces, commas or semicolons (as the server splits). */
export const splitList = (text: string): string[] => text.split(/[\s,;]+/).filter(Boolean);

/** The queued codes of this owner, in scan order; anything unreadable or foreign in storage counts as none. */
export function readQueue(storage: QueueStorage | null, owner: string): string[] {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(queueKey(owner)) ?? null;
  } catch {
    return [];
  }
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    const codes = (parsed as { codes?: unknown } | null)?.codes;
    if (!Array.isArray(codes)) return [];
    const valid = codes.filter((c): c is string => typeof c === 'string' && CODE.test(c));
    return [...new Set(valid)].slice(0, QUEUE_MAX);
  } catch {
    return [];
  }
}

function write(storage: QueueStorage | null, owner: string, codes: string[]): void {
  try {
    if (codes.length === 0) storage?.removeItem(queueKey(owner));
    else storage?.setItem(queueKey(owner), JSON.stringify({ v: 1, codes }));
  } catch {
    // Storage full or refused (private mode): the list on the page still holds the codes.
  }
}

/** Adds codes not queued yet, at the end; answers the queue as stored. */
export function addToQueue(storage: QueueStorage | null, owner: string, codes: readonly string[]): string[] {
  const queue = readQueue(storage, owner);
  for (const code of codes) if (CODE.test(code) && !queue.includes(code) && queue.length < QUEUE_MAX) queue.push(code);
  write(storage, owner, queue);
  return queue;
}

/** Removes these codes (answered by an activation); answers what is still waiting. */
export function removeFromQueue(storage: QueueStorage | null, owner: string, codes: Iterable<string>): string[] {
  const gone = new Set(codes);
  const queue = readQueue(storage, owner).filter((c) => !gone.has(c));
  write(storage, owner, queue);
  return queue;
}

export function clearQueue(storage: QueueStorage | null, owner: string): void {
  write(storage, owner, []);
}

/** The list text with these codes added, one per line, where the text does not hold them yet. */
export function mergeIntoList(text: string, codes: readonly string[]): string {
  const present = new Set(splitList(text));
  const missing = codes.filter((c) => !present.has(c));
  if (missing.length === 0) return text;
  const base = text.replace(/\s+$/, '');
  return (base ? `${base}\n` : '') + missing.join('\n') + '\n';
}

/** localStorage when the browser lets us use it, else null (the queue then lives only on the page). */
export function browserStorage(): QueueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}
