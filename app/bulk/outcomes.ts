// How /add/bulk shows a row's outcome at a glance: its badge's tone, whether it is a problem (the rows that need
// the user's eye: listed first, kept by "Visa bara problem", and the only rows a long list lists), and the order
// of the counts (problems first, the worst first, then the good ones). Pure: the page and the tests read it.
import type { Tone } from '#app/components/ui/Badge.tsx';
import type { BulkActivateOutcome } from '#domain/sims/schemas.ts';

export type ShownOutcome = BulkActivateOutcome | 'pending';

export const OUTCOME_TONE: Record<ShownOutcome, Tone> = {
  invalid: 'error',
  activeElsewhere: 'error',
  duplicateInList: 'warning',
  alreadyActive: 'info',
  ready: 'ok',
  activated: 'ok',
  pending: 'neutral',
};

/** The counts' order: what cannot be activated, what is only noted, then what went (or will go) well. */
export const COUNT_ORDER: readonly ShownOutcome[] = [
  'invalid',
  'activeElsewhere',
  'duplicateInList',
  'alreadyActive',
  'ready',
  'activated',
  'pending',
];

const PROBLEMS = new Set<string>(['invalid', 'duplicateInList', 'alreadyActive', 'activeElsewhere']);

export const isProblem = (outcome: string) => PROBLEMS.has(outcome);

/** The rows with a problem first, each group in list order (the rows keep their numbers, `n`). */
export function problemsFirst<R extends { outcome: string }>(rows: readonly R[]): R[] {
  return [...rows.filter((r) => isProblem(r.outcome)), ...rows.filter((r) => !isProblem(r.outcome))];
}
