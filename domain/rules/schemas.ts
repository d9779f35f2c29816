// Input and output schemas of /api/company/rules (issue 40), and a rule in words for the page. Pure zod and
// texts: the pages read their HTML constraints and the summaries from here. A rule's threshold is stored in one
// unit per condition (percent, bytes, minutes): the API takes it so, the page's form in MB/GB, hours/days
// (thresholdFromForm).
import { tRules } from '#domain/texts/rules.ts';
import { rowId, z } from '#domain/zod.ts';
import { tagSchema } from '#domain/sims/tags.ts';
import { formatBytes } from '#domain/usage/format.ts';
import {
  BYTES_MAX,
  BYTES_MIN,
  FIRINGS_PAGE,
  GB,
  MB,
  RULE_CONDITIONS,
  RULE_NAME_MAX,
  RULE_RECIPIENTS_MAX,
  RULE_TARGETS,
  SHARE_MAX,
  SHARE_MIN,
  SILENT_MAX_MINUTES,
  SILENT_MIN_MINUTES,
  type RuleCondition,
  type RuleTarget,
} from './kinds.ts';

const e = tRules.errors;

const name = z.string().trim().min(1, e.name).max(RULE_NAME_MAX, e.nameTooLong(RULE_NAME_MAX));

/** A threshold within its condition's bounds, or the message that says what is allowed. */
export function thresholdProblem(condition: RuleCondition, threshold: number): string | null {
  switch (condition) {
    case 'month_share':
      return threshold >= SHARE_MIN && threshold <= SHARE_MAX ? null : e.share(SHARE_MIN, SHARE_MAX);
    case 'month_bytes':
    case 'day_bytes':
      return threshold >= BYTES_MIN && threshold <= BYTES_MAX ? null : e.bytes;
    case 'silent':
      return threshold >= SILENT_MIN_MINUTES && threshold <= SILENT_MAX_MINUTES ? null : e.silent;
  }
}

const ruleFields = {
  name,
  target: z.enum(RULE_TARGETS, { error: e.target }),
  /** The tag when target is 'tag' (normalised as every tag). */
  tag: tagSchema.nullish(),
  /** The plan's id when target is 'plan'. */
  planId: rowId(e.plan).nullish(),
  condition: z.enum(RULE_CONDITIONS, { error: e.condition }),
  /** month_share: percent of the plan's data amount; month_bytes, day_bytes: bytes; silent: minutes. */
  threshold: z.number({ error: e.threshold }).int(e.threshold).meta({
    description:
      "month_share: percent of the plan's data amount (1–1000); month_bytes, day_bytes: bytes (1 MB–100,000 GB); silent: minutes (60–129,600, that is 1 hour to 90 days).",
    example: 80,
  }),
  notifyEmail: z
    .boolean()
    .default(false)
    .meta({ description: 'E-mail the recipients (a digest per rule and hour).', example: false }),
  notifyWebhook: z.boolean().default(false),
  notifyToast: z
    .boolean()
    .default(false)
    .meta({ description: 'A toast to the signed-in users of the company.', example: true }),
  pause: z.boolean().default(false),
  /** The users (of the company) the e-mail digest goes to; required with notifyEmail. */
  recipients: z
    .array(rowId(e.recipient))
    .max(RULE_RECIPIENTS_MAX, e.tooManyRecipients(RULE_RECIPIENTS_MAX))
    .default([])
    .transform((ids) => [...new Set(ids)]),
};

type RuleFields = {
  target: RuleTarget;
  tag?: string | null;
  planId?: number | null;
  condition: RuleCondition;
  threshold: number;
  notifyEmail: boolean;
  notifyWebhook: boolean;
  notifyToast: boolean;
  pause: boolean;
  recipients: number[];
};

// What one field cannot say alone: the target's tag or plan, the threshold's bounds, at least one action, and the
// recipients of the e-mail.
function checkRule(v: RuleFields, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
  if (v.target === 'tag' && !v.tag) issue('tag', e.tag);
  if (v.target !== 'tag' && v.tag) issue('tag', e.extra('tag'));
  if (v.target === 'plan' && !v.planId) issue('planId', e.plan);
  if (v.target !== 'plan' && v.planId) issue('planId', e.extra('planId'));
  const problem = thresholdProblem(v.condition, v.threshold);
  if (problem) issue('threshold', problem);
  if (!v.notifyEmail && !v.notifyWebhook && !v.notifyToast && !v.pause) issue('actions', e.actions);
  if (v.notifyEmail && v.recipients.length === 0) issue('recipients', e.recipients);
  if (!v.notifyEmail && v.recipients.length > 0) issue('recipients', e.extra('recipients'));
}

export const ruleCreateInput = z.object({ ...ruleFields, enabled: z.boolean().default(true) }).superRefine(checkRule);
export const ruleUpdateInput = z.object({ id: rowId(), ...ruleFields, enabled: z.boolean() }).superRefine(checkRule);
export const ruleIdInput = z.object({ id: rowId() });
export type RuleCreateInput = z.infer<typeof ruleCreateInput>;
export type RuleUpdateInput = z.infer<typeof ruleUpdateInput>;

export const ruleOutput = z.object({
  id: z.number(),
  name: z.string(),
  enabled: z.boolean(),
  target: z.enum(RULE_TARGETS),
  tag: z.string().nullable(),
  planId: z.number().nullable(),
  /** The plan's code (with target 'plan'). */
  planCode: z.string().nullable(),
  condition: z.enum(RULE_CONDITIONS),
  threshold: z.number(),
  notifyEmail: z.boolean(),
  notifyWebhook: z.boolean(),
  notifyToast: z.boolean(),
  pause: z.boolean(),
  recipients: z.array(z.object({ id: z.number(), name: z.string() })),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RuleView = z.infer<typeof ruleOutput>;

/** GET /api/company/rules/firings: one rule's or all, newest first, a page of FIRINGS_PAGE after `before`. */
export const firingsInput = z.object({
  ruleId: rowId().meta({ description: "One rule's firings only (else every rule's).", example: 7 }).optional(),
  /** The `next` of the page before (opaque). */
  before: z.string().max(200).meta({ description: 'The `next` of the page before (opaque).' }).optional(),
});

export const firingOutput = z.object({
  id: z.number(),
  simId: z.number(),
  iccid: z.string(),
  ruleId: z.number(),
  ruleName: z.string(),
  /** '2026-11' (a month rule), '2026-11-29' (a day rule), 'silent:<ISO time of the last traffic>' (silence). */
  period: z.string(),
  /** Bytes (usage rules) or minutes silent. */
  value: z.number(),
  firedAt: z.string(),
  paused: z.boolean(),
  webhook: z.boolean(),
  emailedAt: z.string().nullable(),
});
export type FiringView = z.infer<typeof firingOutput>;

export const firingsPageOutput = z.object({
  firings: z.array(firingOutput).max(FIRINGS_PAGE),
  /** The `before` of the next (older) page; null on the last. */
  next: z.string().nullable(),
});
export type FiringsPage = z.infer<typeof firingsPageOutput>;

/** Minutes in words: whole days as days, else whole hours as hours, else minutes. */
export function durationText(minutes: number): string {
  if (minutes % 1440 === 0) return tRules.days(minutes / 1440);
  if (minutes % 60 === 0) return tRules.hours(minutes / 60);
  return tRules.minutes(minutes);
}

/** The rule's condition in words: "När förbrukningen i månaden passerar 80 % av planens datamängd". */
export function ruleSummary(rule: { condition: RuleCondition; threshold: number }): string {
  const s = tRules.summary;
  switch (rule.condition) {
    case 'month_share':
      return s.month_share(rule.threshold);
    case 'month_bytes':
      return s.month_bytes(rule.threshold);
    case 'day_bytes':
      return s.day_bytes(rule.threshold);
    case 'silent':
      return s.silent(durationText(rule.threshold));
  }
}

/** Which SIMs, in words. */
export function ruleTargetText(rule: { target: RuleTarget; tag: string | null; planCode: string | null }): string {
  if (rule.target === 'tag') return tRules.tagSims(rule.tag ?? '');
  if (rule.target === 'plan') return tRules.planSims(rule.planCode ?? '');
  return tRules.allSims;
}

/** What the rule does, in words, in order. */
export function ruleActionsText(rule: {
  notifyEmail: boolean;
  notifyWebhook: boolean;
  notifyToast: boolean;
  pause: boolean;
  recipients: Array<{ name: string }>;
}): string[] {
  const out: string[] = [];
  if (rule.notifyEmail) out.push(tRules.actionEmail(rule.recipients.map((r) => r.name)));
  if (rule.notifyWebhook) out.push(tRules.actionWebhook);
  if (rule.notifyToast) out.push(tRules.actionToast);
  if (rule.pause) out.push(tRules.actionPause);
  return out;
}

/** A firing's value in words: an amount of data, or how long the SIM had been silent. */
export function firingValueText(period: string, value: number): string {
  if (!period.startsWith('silent:')) return formatBytes(value);
  const text =
    value >= 2 * 1440
      ? tRules.days(Math.floor(value / 1440))
      : value >= 60
        ? tRules.hours(Math.floor(value / 60))
        : tRules.minutes(value);
  return tRules.silentFor(text);
}

/** The units the form offers for a condition's amount (the stored unit's multiple). */
export const FORM_UNITS = {
  month_share: { '%': 1 },
  month_bytes: { MB, GB },
  day_bytes: { MB, GB },
  silent: { hours: 60, days: 1440 },
} as const satisfies Record<RuleCondition, Record<string, number>>;

/**
 * The form's amount (Swedish decimal comma or point) and unit as the stored threshold, or the message for the
 * amount's field. The bounds are the procedure's (thresholdProblem): they are checked there.
 */
export function thresholdFromForm(
  condition: RuleCondition,
  amount: string,
  unit: string,
): { threshold: number } | { error: string } {
  const units = FORM_UNITS[condition] as Record<string, number>;
  const size = Object.hasOwn(units, unit) ? units[unit] : undefined;
  if (size === undefined) return { error: e.unit };
  const text = amount.trim().replace(',', '.');
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(text)) return { error: amount.trim() ? e.number : e.threshold };
  return { threshold: Math.round(Number(text) * size) };
}

/** The stored threshold as the form shows it: the largest unit it is a whole number of. */
export function thresholdToForm(condition: RuleCondition, threshold: number): { amount: string; unit: string } {
  const units = Object.entries(FORM_UNITS[condition] as Record<string, number>).sort((a, b) => b[1] - a[1]);
  const [unit, size] = units.find(([, s]) => threshold % s === 0) ?? units.at(-1) ?? ['', 1];
  return { amount: String(threshold / size).replace('.', ','), unit };
}
