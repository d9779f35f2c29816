// What the usage tests share: the demo SIMs to send records for, an ICCID no SIM has, an empty store.
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { swedishMidnight } from '#domain/usage/period.ts';
import { swedishDay } from '#domain/usage/time.ts';
import type { Em } from '#server/db/orm.ts';

export async function activeSims(em: Em, n: number): Promise<Array<{ id: number; iccid: string }>> {
  return em.execute(`select id, iccid from sim where status = 'active' order by id limit ${n}`);
}

export async function clear(em: Em): Promise<void> {
  await em.execute(
    'truncate usage_record, usage_day, usage_month, usage_last_seen, usage_aside, usage_company_day, usage_tag_day',
  );
  // The SIMs' mark of a first sighting goes with the sightings.
  await em.execute('update sim set ever_seen = false where ever_seen');
}

export const num = (v: unknown) => Number(v);
export const unknownIccid = (i: number) => withCheckDigit(`8946999${String(i).padStart(12, '0')}`);

/**
 * A start `agoMs` before `now`, but never before today's Swedish midnight: a record a test means to be "today's"
 * stays today's in the first hour after midnight too (CI runs at any hour).
 */
export function earlierToday(now: number, agoMs: number): number {
  return Math.max(now - agoMs, swedishMidnight(swedishDay(new Date(now))).getTime());
}
