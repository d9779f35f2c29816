// What the rules' background work keeps per rule (issue 40; server/rules/silence.ts and digest.ts): how far the
// silence sweep has looked and when the last e-mail digest went out. Read and written by plain SQL, locked per rule.
import { defineEntity, p } from '@mikro-orm/core';
import { Rule } from './rules.ts';

export const RuleWatchSchema = defineEntity({
  name: 'RuleWatch',
  tableName: 'rule_watch',
  properties: {
    rule: () => p.manyToOne(Rule).primary().deleteRule('cascade'),
    silenceCheckedUntil: p.datetime().nullable(),
    digestSentAt: p.datetime().nullable(),
  },
});
export class RuleWatch extends RuleWatchSchema.class {}
RuleWatchSchema.setClass(RuleWatch);
