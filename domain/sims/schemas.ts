// Long: the SIM operations' input and output schemas, the one truth every door and form checks against.
// Input schemas of the SIM operations: the single truth for validation (forms mirror them in HTML).
import { t } from '#domain/texts/common.ts';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { listLimit, MAX_ROW_ID, rowId, z } from '#domain/zod.ts';
import { iccidMessages, iccidProblem, normalizeIccid } from './iccid.ts';
import { simUsageOutput } from './usage-output.ts';
import { simTagsOutput, tagFilter, tagList, TAGS_PER_SIM } from './tags.ts';
import { listState, pausedByOutput, SIM_STATES } from './pause.ts';
import { viewFields } from './view.ts';
import { BULK_ACTIVATE_OUTCOMES, BULK_DEACTIVATE_OUTCOMES, BULK_MAX, ICCID_TYPED_MAX, MARK_MAX } from './limits.ts';

// The bounds live in limits.ts (no zod there, so pages can import them); server code may keep importing them here.
export {
  BULK_ACTIVATE_OUTCOMES,
  BULK_DEACTIVATE_OUTCOMES,
  BULK_FILE_ACCEPT,
  BULK_FILE_MAX_BYTES,
  BULK_MAX,
  MARK_MAX,
  type BulkActivateOutcome,
  type BulkDeactivateOutcome,
} from './limits.ts';

// A mark: optional when activating (empty), required when editing, where a missing field would clear it.
const markText = z
  .string()
  .max(10_000)
  .transform((v) => v.trim())
  .pipe(z.string().max(MARK_MAX, t.errors.fields.mark(MARK_MAX)));
const mark = z.string().max(10_000).default('').pipe(markText);

// Forms send strings, JSON sends booleans: accept both. A form leaves an unticked box out, so the edit
// page's action sends false for it; an API caller must send both flags when editing.
const requiredFlag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');
const flag = requiredFlag.default(false);

const dataLimit = z.coerce
  .number({ error: t.plans.chooseAmount })
  .int(t.plans.chooseAmount)
  .positive(t.plans.chooseAmount)
  .max(10_000_000, t.plans.chooseAmount);

export const iccidSchema = z
  .string({ error: iccidMessages.empty })
  .max(ICCID_TYPED_MAX, iccidMessages.length)
  .transform(normalizeIccid)
  .superRefine((v, ctx) => {
    const problem = iccidProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: iccidMessages[problem] });
  });

export const planChoice = { dataLimit, callAndSms: flag, roaming: flag };

export const activateInput = z.object({
  iccid: iccidSchema,
  ...planChoice,
  invoiceLineMark: mark,
  invoiceLineNote: mark,
  tags: tagList,
});
export type ActivateInput = z.infer<typeof activateInput>;

// Every field is required (the spec's PUT payload lists them all): a left-out field must not change the SIM.
export const editInput = z.object({
  // A union first, so that a missing id is reported as missing rather than as "not a number".
  id: z.union([z.number(), z.string()]).pipe(rowId()),
  dataLimit,
  callAndSms: requiredFlag,
  roaming: requiredFlag,
  invoiceLineMark: markText,
  invoiceLineNote: markText,
});
export type EditInput = z.infer<typeof editInput>;

export const listQuery = z.object({
  q: z.string().max(200).optional(),
  tag: tagFilter,
  /** active or paused SIMs only; both when left out (the fleet). */
  status: listState,
  limit: listLimit(),
  offset: z.coerce.number().int().min(0).optional(),
});
/** /sims' read: the list's query and its view (sort, usage filter; domain/sims/view.ts). */
export const listInput = listQuery.extend(viewFields).prefault({});
/**
 * GET /api/sim/all: the list's query, and `cursor`: where the next page starts, as the previous
 * answer's `Link: <…>; rel="next"` gave it (opaque). With a cursor, `offset` must be left out.
 */
export const listApiInput = listQuery
  .extend({ cursor: z.string().max(100).optional() })
  .refine((v) => v.cursor === undefined || !v.offset, {
    message: 'Ange antingen cursor eller offset, inte båda.',
    path: ['cursor'],
  })
  .prefault({});

/**
 * The SIMs a search finds, for a bulk selection ("all that match"): the list's search, tags and state, as /sims
 * narrows it (its usage filter is not a selection: the page's boxes select there). The first BULK_MAX, as slim rows.
 */
export const matchingInput = z.object({
  q: listQuery.shape.q,
  tag: listQuery.shape.tag,
  status: listQuery.shape.status,
});
export type MatchingInput = z.infer<typeof matchingInput>;
export const matchingOutput = z.object({
  rows: z.array(z.object({ id: z.number(), iccid: z.string(), legacy: z.boolean() })),
  /** How many match; with exact false, more than this many. */
  total: z.number(),
  exact: z.boolean(),
});

export const ratePlanOutput = z.object({
  id: z.number(),
  code: z.string(),
  description: z.string(),
  dataLimit: z.number(),
  call: z.boolean(),
  sms: z.boolean(),
  roaming: z.boolean(),
  isLegacy: z.boolean(),
});

export const simOutput = z.object({
  id: z.number(),
  iccid: z.string(),
  invoiceLineMark: z.string(),
  invoiceLineNote: z.string(),
  /** active, paused (issue 40: keeps its number and plan, carries no data) or deactivated. */
  status: z.enum(SIM_STATES),
  activatedAt: z.string(),
  /** When it was paused (ISO 8601 UTC), or null. */
  pausedAt: z.string().nullable(),
  ratePlan: ratePlanOutput,
});

/** A SIM of the list (GET /api/sim/all, /sims) with its usage and tags. */
export const simListedOutput = simOutput.extend({ usage: simUsageOutput, tags: simTagsOutput });

const historyEvent = z.object({
  kind: z.enum(['activated', 'updated', 'planChanged', 'deactivated', 'paused', 'resumed']),
  at: z.string(),
  by: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

/** A SIM with the newest events of its history (at most LIST_PAGE_MAX; older ones: simHistoryOutput's pages). */
export const simDetailOutput = simOutput.extend({
  usage: simUsageOutput,
  tags: simTagsOutput,
  /** Who paused it (a person, an API key or a rule), while it is paused; else null. */
  pausedBy: pausedByOutput.nullable(),
  history: z.array(historyEvent),
});

/** A page of a SIM's history: `before` is the id of the last event of the page before (keyset). */
export const simHistoryInput = z.object({ id: rowId(), before: rowId().optional() });
export const simHistoryOutput = z.object({
  items: z.array(historyEvent.extend({ id: z.number() })),
  /** The `before` of the next (older) page; null on the last. */
  nextBefore: z.number().nullable(),
});

// Bulk work. An ICCID of the list is checked per row, not by the schema: a bad one is an outcome
// ("invalid") of its own row and never refuses the rest of the list.

/** A list over BULK_MAX: how long it was, in Swedish, and what to do. */
const listMax = {
  error: (issue: { input?: unknown }) =>
    tBulkFile.listTooLong(Array.isArray(issue.input) ? issue.input.length : BULK_MAX + 1, BULK_MAX),
};
const bulkIccid = z.string().max(ICCID_TYPED_MAX, t.errors.fields.iccid.length);
// A row's own mark or comment (a file's columns): trimmed; its length is checked on the list, so the
// message can name the row.
const rowMark = z
  .string()
  .max(10_000)
  .transform((v) => v.trim())
  .optional();

// A row's ICCID is bounded loosely here and checked against the list's bound on the list, naming the row.
// A row's own tags (a file's Taggar column) are added to the list's: together at most TAGS_PER_SIM (checked on the list).
export const bulkRow = z.object({
  iccid: z.string().max(10_000),
  invoiceLineMark: rowMark,
  invoiceLineNote: rowMark,
  tags: tagList.optional(),
});
export type BulkRow = z.infer<typeof bulkRow>;

/**
 * The list is `iccids` (one mark and comment for all: the contract since the path was made) or `rows`, where
 * a row may carry its own mark and comment (a file's columns), which win over the list's. Not both.
 */
export const bulkActivateInput = z
  .object({
    iccids: z.array(bulkIccid).min(1).max(BULK_MAX, listMax).optional(),
    rows: z
      .array(bulkRow)
      .min(1)
      .max(BULK_MAX, listMax)
      .superRefine((rows, ctx) =>
        rows.forEach((row, i) => {
          if (row.iccid.length > ICCID_TYPED_MAX)
            ctx.addIssue({
              code: 'custom',
              path: [i, 'iccid'],
              message: tBulkFile.rowIccid(i + 1, t.errors.fields.iccid.length),
            });
          for (const key of ['invoiceLineMark', 'invoiceLineNote'] as const) {
            const value = row[key];
            if (value !== undefined && value.length > MARK_MAX)
              ctx.addIssue({ code: 'custom', path: [i, key], message: tBulkFile.rowTooLong(i + 1, key, MARK_MAX) });
          }
        }),
      )
      .optional(),
    ...planChoice,
    invoiceLineMark: mark,
    invoiceLineNote: mark,
    tags: tagList,
    dryRun: flag,
  })
  .superRefine((input, ctx) => {
    // A missing list is reported on `iccids`, as before `rows` existed.
    if (input.iccids === undefined && input.rows === undefined)
      ctx.addIssue({ code: 'custom', path: ['iccids'], message: tBulkFile.noList });
    else if (input.iccids !== undefined && input.rows !== undefined)
      ctx.addIssue({ code: 'custom', path: ['rows'], message: tBulkFile.bothLists });
    // A SIM gets its row's tags and the list's: never more than a SIM may have.
    input.rows?.forEach((row, i) => {
      if (row.tags?.length && new Set([...row.tags, ...input.tags]).size > TAGS_PER_SIM)
        ctx.addIssue({ code: 'custom', path: ['rows', i, 'tags'], message: tBulkFile.rowTags(i + 1, TAGS_PER_SIM) });
    });
  });
export type BulkActivateInput = z.infer<typeof bulkActivateInput>;

/**
 * The one toast of a chunked run (tRPC only, the browser's /add/bulk): the ids its chunks activated and how
 * many rows the list had; the server counts the activated ones itself.
 */
export const bulkActivateSummaryInput = z.object({
  simIds: z.array(z.number().int().positive().max(MAX_ROW_ID)).max(BULK_MAX),
  total: z.number().int().min(1).max(BULK_MAX),
});
export type BulkActivateSummaryInput = z.infer<typeof bulkActivateSummaryInput>;

const countsOf = <T extends readonly [string, ...string[]]>(outcomes: T) =>
  z.object(Object.fromEntries(outcomes.map((o) => [o, z.number()])) as { [K in T[number]]: z.ZodNumber });

export const bulkActivateOutput = z.object({
  results: z.array(
    z.object({
      iccid: z.string(),
      outcome: z.enum(BULK_ACTIVATE_OUTCOMES),
      simId: z.number().optional(),
      message: z.string().optional(),
    }),
  ),
  counts: countsOf(BULK_ACTIVATE_OUTCOMES),
});
export type BulkActivateOutput = z.infer<typeof bulkActivateOutput>;

export const bulkDeactivateInput = z.object({
  ids: z.array(z.number().int().positive().max(MAX_ROW_ID)).min(1).max(BULK_MAX, listMax),
});
export type BulkDeactivateInput = z.infer<typeof bulkDeactivateInput>;

export const bulkDeactivateOutput = z.object({
  results: z.array(z.object({ id: z.number(), outcome: z.enum(BULK_DEACTIVATE_OUTCOMES) })),
  counts: countsOf(BULK_DEACTIVATE_OUTCOMES),
});
export type BulkDeactivateOutput = z.infer<typeof bulkDeactivateOutput>;
