// A rule's parts as constants (issue 40; no database code, no zod), so the entities, the schemas and the page
// share them: which SIMs it watches, what it waits for, and the bounds of each.

/** Which SIMs: every SIM of the company, those with a tag, or those on a plan. */
export const RULE_TARGETS = ['all', 'tag', 'plan'] as const;
export type RuleTarget = (typeof RULE_TARGETS)[number];

/**
 * When: this month's usage passes a share (percent) of the plan's data amount, or a number of bytes; one day's
 * usage passes a number of bytes; no traffic for a number of minutes.
 */
export const RULE_CONDITIONS = ['month_share', 'month_bytes', 'day_bytes', 'silent'] as const;
export type RuleCondition = (typeof RULE_CONDITIONS)[number];

/** What: e-mail the chosen users (a digest per hour), a webhook per SIM, a toast, and pause the SIM. */
export const RULE_ACTIONS = ['notifyEmail', 'notifyWebhook', 'notifyToast', 'pause'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** Rules one company may have. */
export const RULES_PER_COMPANY = 100;
/** The longest name of a rule. */
export const RULE_NAME_MAX = 80;
/** E-mail recipients of one rule. */
export const RULE_RECIPIENTS_MAX = 50;
/** A share of the plan's data amount, in percent. */
export const SHARE_MIN = 1;
export const SHARE_MAX = 1000;
/** An amount of usage: at least 1 MB, at most 100 TB (in bytes). */
export const MB = 1_000_000;
export const GB = 1_000_000_000;
export const BYTES_MIN = MB;
export const BYTES_MAX = 100_000 * GB;
/** Silence: at least an hour, at most 90 days (in minutes). */
export const SILENT_MIN_MINUTES = 60;
export const SILENT_MAX_MINUTES = 90 * 24 * 60;
/** Firings a page of the list holds. */
export const FIRINGS_PAGE = 50;
