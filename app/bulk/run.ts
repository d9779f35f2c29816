// A bulk activation run in the browser (/add/bulk with JS): the list is sent in chunks, one after
// another, so the page can show progress, and a run cut off by the network keeps what is done and sends only
// the rest on "Försök igen". A repeat of an ICCID in the list is told here, before any chunk: the server sees
// one chunk at a time and could not see a repeat across chunks. Pure: the unit tests drive it.
import { BULK_ROWS_SHOWN } from '#domain/sims/limits.ts';
import type { BulkActivateOutcome, BulkActivateOutput } from '#domain/sims/schemas.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import { isProblem } from './outcomes.ts';

/**
 * ICCIDs per sim.bulkActivateChunk call: 10,000 are 20 calls of about a tenth of a second each on PostgreSQL, so
 * the bar moves several times a second and a cut-off run loses at most one call's answer.
 */
export const CHUNK_SIZE = 500;

/** A row of the list: its outcome, or 'pending' while (or when a cut-off run left it) unsent. */
export type BulkRow = {
  iccid: string;
  outcome: BulkActivateOutcome | 'pending';
  message?: string;
  simId?: number;
};

export type Counts = BulkActivateOutput['counts'];

/** The rows of a new run: a repeat is "duplicateInList" at once, every other row waits to be sent. */
export function startRows(list: readonly string[]): BulkRow[] {
  const seen = new Set<string>();
  return list.map((iccid) => {
    if (seen.has(iccid)) return { iccid, outcome: 'duplicateInList', message: tBulk.duplicateInList };
    seen.add(iccid);
    return { iccid, outcome: 'pending' };
  });
}

/** The indexes of the next chunk: up to `size` rows still pending, in list order. */
export function nextChunk(rows: readonly BulkRow[], size = CHUNK_SIZE): number[] {
  const out: number[] = [];
  for (const [i, row] of rows.entries()) {
    if (out.length >= size) break;
    if (row.outcome === 'pending') out.push(i);
  }
  return out;
}

/** The rows with one chunk's answers put in place (the answer lists the chunk's rows in the order sent). */
export function applyChunk(
  rows: readonly BulkRow[],
  chunk: readonly number[],
  results: BulkActivateOutput['results'],
): BulkRow[] {
  const next = [...rows];
  chunk.forEach((index, k) => {
    const r = results[k];
    const row = rows[index];
    if (r && row) next[index] = { iccid: row.iccid, outcome: r.outcome, message: r.message, simId: r.simId };
  });
  return next;
}

export function countRows(rows: readonly BulkRow[]): { counts: Counts; pending: number; done: number } {
  const counts: Counts = {
    activated: 0,
    ready: 0,
    invalid: 0,
    duplicateInList: 0,
    alreadyActive: 0,
    activeElsewhere: 0,
  };
  let pending = 0;
  for (const r of rows) {
    if (r.outcome === 'pending') pending++;
    else counts[r.outcome]++;
  }
  return { counts, pending, done: rows.length - pending };
}

/**
 * The rows a page lists, each with its row number in the list: every row of a list of up to `max`; of a longer
 * one only the rows with a problem, the first `max` of them (the counts say the rest, the download has them all),
 * so a page of 10,000 rows stays small and shows first what needs doing. `hidden`: how many are not listed.
 */
export function shownRows<R extends { outcome: string }>(
  rows: readonly R[],
  max = BULK_ROWS_SHOWN,
): { rows: Array<R & { n: number }>; hidden: number } {
  const numbered = rows.map((r, i) => ({ ...r, n: i + 1 }));
  if (rows.length <= max) return { rows: numbered, hidden: 0 };
  const problems = numbered.filter((r) => isProblem(r.outcome)).slice(0, max);
  return { rows: problems, hidden: rows.length - problems.length };
}

/** The ids of the SIMs this run activated (for its one summary toast). */
export const activatedIds = (rows: readonly BulkRow[]): number[] =>
  rows.flatMap((r) => (r.outcome === 'activated' && r.simId ? [r.simId] : []));

/** The ICCIDs a run has answered: these leave the offline queue. */
export const answered = (rows: readonly BulkRow[]): string[] =>
  rows.filter((r) => r.outcome !== 'pending').map((r) => r.iccid);
