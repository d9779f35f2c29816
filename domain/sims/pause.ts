// The paused state (issue 40, docs/decisions/037): a paused SIM keeps its number and plan but carries no data, and
// is resumed at once. The API's `status` is derived (deactivated, else paused, else active); the list's `status`
// filter chooses active or paused SIMs of the fleet (both when left out). The bounds of the bulk doors are the
// deactivation's (BULK_MAX ids).
import { tPause } from '#domain/texts/pause.ts';
import { z } from '#domain/zod.ts';

/** A SIM's status as the API and the pages answer it. */
export const SIM_STATES = ['active', 'paused', 'deactivated'] as const;
export type SimState = (typeof SIM_STATES)[number];

/** The fleet's states a list may be narrowed to (a deactivated SIM has left the fleet). */
export const LIST_STATES = ['active', 'paused'] as const;
export type ListState = (typeof LIST_STATES)[number];
export const listState = z.enum(LIST_STATES, { error: tPause.badState }).optional();

export const PAUSE_OUTCOMES = ['paused', 'alreadyPaused', 'notFound'] as const;
export const RESUME_OUTCOMES = ['resumed', 'notPaused', 'notFound'] as const;
export type PauseOutcome = (typeof PAUSE_OUTCOMES)[number];
export type ResumeOutcome = (typeof RESUME_OUTCOMES)[number];

/** Who paused a SIM: a person, an API key or a company's rule, by the name it had then. */
export const pausedByOutput = z.object({ kind: z.enum(['user', 'apiKey', 'rule']), name: z.string() });
export type PausedBy = z.infer<typeof pausedByOutput>;

const counts = <T extends readonly string[]>(outcomes: T) =>
  z.object(Object.fromEntries(outcomes.map((o) => [o, z.number()])) as { [K in T[number]]: z.ZodNumber });

export const bulkPauseOutput = z.object({
  results: z.array(z.object({ id: z.number(), outcome: z.enum(PAUSE_OUTCOMES) })),
  counts: counts(PAUSE_OUTCOMES),
});
export const bulkResumeOutput = z.object({
  results: z.array(z.object({ id: z.number(), outcome: z.enum(RESUME_OUTCOMES) })),
  counts: counts(RESUME_OUTCOMES),
});
export type BulkPauseOutput = z.infer<typeof bulkPauseOutput>;
export type BulkResumeOutput = z.infer<typeof bulkResumeOutput>;

/** One SIM paused or resumed: changed false when it already was (nothing done, nothing sent). */
export const pauseOneOutput = z.object({ success: z.boolean(), changed: z.boolean() });

/** The status of a SIM row: deactivated, else paused when it has a pause mark, else active. */
export const stateOf = (status: 'active' | 'deactivated', pausedAt: unknown): SimState =>
  status === 'deactivated' ? 'deactivated' : pausedAt ? 'paused' : 'active';
