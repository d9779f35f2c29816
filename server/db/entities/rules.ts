// Rules (issue 40; domain/rules/): a company's rules, the users a rule's e-mail digest goes to, and what each rule
// did (its firings, one per SIM per period). The rules are written through server/rules/rules.ts; the firings by the
// evaluation (the usage ingest and the silence sweep), read a page at a time by plain SQL. Company first in every
// list's key (docs/scaling.md).
import { defineEntity, p } from '@mikro-orm/core';
import { RULE_CONDITIONS, RULE_TARGETS } from '#domain/rules/kinds.ts';
import { Company, now, RatePlan, Sim, User } from './core.ts';

export const RuleSchema = defineEntity({
  name: 'Rule',
  tableName: 'rule',
  properties: {
    id: p.integer().primary(),
    company: () => p.manyToOne(Company).deleteRule('cascade'),
    name: p.string().length(80),
    enabled: p.boolean().default(true),
    target: p.enum(RULE_TARGETS),
    // Set iff target = 'tag' (a tag as domain/sims/tags.ts stores it), code point order as sim_tag.
    targetTag: p.string().length(40).collation('C').nullable(),
    // Set iff target = 'plan'.
    targetPlan: () => p.manyToOne(RatePlan).nullable().deleteRule('no action'),
    condition: p.enum(RULE_CONDITIONS),
    // month_share: percent of the plan's data amount; month_bytes, day_bytes: bytes; silent: minutes.
    threshold: p.bigint('number'),
    notifyEmail: p.boolean().default(false),
    notifyWebhook: p.boolean().default(false),
    notifyToast: p.boolean().default(false),
    pause: p.boolean().default(false),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: p.datetime().onCreate(now).defaultRaw('now()'),
    updatedAt: p.datetime().onCreate(now).onUpdate(now).defaultRaw('now()'),
  },
  uniques: [{ name: 'rule_company_id_name_unique', properties: ['company', 'name'] }],
  // The target's tag or plan is there iff the target asks for it; a rule does at least one thing.
  checks: [
    {
      name: 'rule_target_tag_check',
      expression: `("target" = 'tag') = ("target_tag" is not null)`,
    },
    {
      name: 'rule_target_plan_check',
      expression: `("target" = 'plan') = ("target_plan_id" is not null)`,
    },
    {
      name: 'rule_action_check',
      expression: '"notify_email" or "notify_webhook" or "notify_toast" or "pause"',
    },
    { name: 'rule_threshold_check', expression: '"threshold" > 0' },
  ],
  // The company's rules in id order (the page, the evaluation's rules of a company).
  indexes: [
    { name: 'rule_company_id_id_index', properties: ['company', 'id'] },
    // The rules of a kind whose threshold a SIM's total reached: a range per SIM in the ingest's evaluation.
    {
      name: 'rule_threshold_index',
      expression:
        'create index "rule_threshold_index" on "rule" ("company_id", "condition", "threshold") where "enabled"',
    },
  ],
});
export class Rule extends RuleSchema.class {}
RuleSchema.setClass(Rule);

// The users a rule's e-mail digest goes to (users of its company, chosen by the owner).
export const RuleRecipientSchema = defineEntity({
  name: 'RuleRecipient',
  tableName: 'rule_recipient',
  properties: {
    rule: () => p.manyToOne(Rule).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
  },
});
export class RuleRecipient extends RuleRecipientSchema.class {}
RuleRecipientSchema.setClass(RuleRecipient);

// What a rule did: once per SIM per period ('2026-11' for a month rule, '2026-11-29' for a day rule,
// 'silent:<ISO time of the last traffic>' for silence), with the value that crossed (bytes, or minutes silent),
// whether it paused the SIM, whether a webhook was queued, and when the e-mail digest took it (null: not yet).
export const RuleFiringSchema = defineEntity({
  name: 'RuleFiring',
  tableName: 'rule_firing',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    companyId: p.integer(),
    rule: () => p.manyToOne(Rule).deleteRule('cascade'),
    sim: () => p.manyToOne(Sim),
    period: p.text(),
    value: p.bigint('number'),
    firedAt: p.datetime().defaultRaw('now()'),
    paused: p.boolean().default(false),
    webhook: p.boolean().default(false),
    emailedAt: p.datetime().nullable(),
  },
  uniques: [{ name: 'rule_firing_rule_id_sim_id_period_unique', properties: ['rule', 'sim', 'period'] }],
  indexes: [
    // The company's firings, newest first (the page's list), keyset on (fired_at, id).
    {
      name: 'rule_firing_company_index',
      expression:
        'create index "rule_firing_company_index" on "rule_firing" ("company_id", "fired_at" desc, "id" desc)',
    },
    // One rule's firings, newest first.
    {
      name: 'rule_firing_rule_index',
      expression: 'create index "rule_firing_rule_index" on "rule_firing" ("rule_id", "fired_at" desc, "id" desc)',
    },
    // The hourly digest: a rule's firings not yet e-mailed.
    {
      name: 'rule_firing_unmailed_index',
      expression:
        'create index "rule_firing_unmailed_index" on "rule_firing" ("rule_id", "fired_at") where "emailed_at" is null',
    },
  ],
});
export class RuleFiring extends RuleFiringSchema.class {}
RuleFiringSchema.setClass(RuleFiring);
