// A company's rules (issue 40, docs/decisions/038): list, create, change, delete (what the rules did: firings.ts). Every query is scoped by the company; every change is in the company's trail (kind
// rule) in the same transaction. The evaluation (the usage ingest and the silence sweep) reads the rules and writes
// the firings elsewhere.
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { tRules } from '#domain/texts/rules.ts';
import { Conflict, Invalid, NotFound } from '#domain/errors.ts';
import { RULES_PER_COMPANY } from '#domain/rules/kinds.ts';
import type { RuleCreateInput, RuleUpdateInput, RuleView } from '#domain/rules/schemas.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { Company, RatePlan, Rule, RuleRecipient, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';

export type RuleActor = Actor & { companyId: number };

const e = tRules.errors;

type RuleRow = {
  id: number;
  name: string;
  enabled: boolean;
  target: RuleView['target'];
  target_tag: string | null;
  target_plan_id: number | null;
  plan_code: string | null;
  condition: RuleView['condition'];
  threshold: string | number;
  notify_email: boolean;
  notify_webhook: boolean;
  notify_toast: boolean;
  pause: boolean;
  created_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The company's rules in id order (one rule with `id`), with their recipients' names: two statements. */
async function readRules(em: Em, companyId: number, id?: number): Promise<RuleView[]> {
  const rows = await em.execute<RuleRow[]>(
    `select r.id, r.name, r.enabled, r.target, r.target_tag, r.target_plan_id, p.code as plan_code, r.condition,
       r.threshold, r.notify_email, r.notify_webhook, r.notify_toast, r.pause, u.name as created_by, r.created_at,
       r.updated_at
     from rule r left join rate_plan p on p.id = r.target_plan_id left join app_user u on u.id = r.created_by_id
     where r.company_id = ? ${id === undefined ? '' : 'and r.id = ?'} order by r.id`,
    id === undefined ? [companyId] : [companyId, id],
  );
  if (rows.length === 0) return [];
  const recipients = await em.execute<Array<{ rule_id: number; id: number; name: string }>>(
    `select rr.rule_id, u.id, u.name from rule_recipient rr join rule r on r.id = rr.rule_id
       join app_user u on u.id = rr.user_id
     where r.company_id = ? ${id === undefined ? '' : 'and r.id = ?'} order by u.name, u.id`,
    id === undefined ? [companyId] : [companyId, id],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    enabled: r.enabled,
    target: r.target,
    tag: r.target_tag,
    planId: r.target_plan_id,
    planCode: r.plan_code,
    condition: r.condition,
    threshold: Number(r.threshold),
    notifyEmail: r.notify_email,
    notifyWebhook: r.notify_webhook,
    notifyToast: r.notify_toast,
    pause: r.pause,
    recipients: recipients.filter((x) => x.rule_id === r.id).map((x) => ({ id: x.id, name: x.name })),
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }));
}

export const listRules = (em: Em, companyId: number): Promise<RuleView[]> => readRules(em, companyId);

/** One rule of the company, or NotFound (another company's is not told apart from none). */
export async function getRule(em: Em, companyId: number, id: number): Promise<RuleView> {
  const [rule] = await readRules(em, companyId, id);
  if (!rule) throw new NotFound(e.notFound);
  return rule;
}

/** What the trail keeps of a rule: its settings, never more. */
const snapshot = (r: RuleView) => ({
  name: r.name,
  enabled: r.enabled,
  target: r.target,
  tag: r.tag,
  planId: r.planId,
  condition: r.condition,
  threshold: r.threshold,
  notifyEmail: r.notifyEmail,
  notifyWebhook: r.notifyWebhook,
  notifyToast: r.notifyToast,
  pause: r.pause,
  recipients: r.recipients.map((u) => u.id),
});

function audit(tx: Em, actor: RuleActor, action: string, id: number, before: RuleView | null, after: RuleView) {
  recordAudit(tx, actor, {
    action,
    kind: 'rule',
    companyId: actor.companyId,
    targetType: 'Rule',
    targetId: id,
    before: before ? snapshot(before) : null,
    after: snapshot(after),
  });
}

/** The plan exists; the recipients are users of the company that are not removed. */
async function checkRefs(tx: Em, companyId: number, input: RuleCreateInput): Promise<void> {
  if (input.target === 'plan' && input.planId && !(await tx.count(RatePlan, { id: input.planId })))
    throw Invalid.field('planId', e.planMissing);
  if (input.recipients.length) {
    const found = await tx.count(User, { id: { $in: input.recipients }, company: companyId, removedAt: null });
    if (found !== input.recipients.length) throw Invalid.field('recipients', e.recipient);
  }
}

const columns = (input: RuleCreateInput) => ({
  name: input.name,
  enabled: input.enabled,
  target: input.target,
  targetTag: input.target === 'tag' ? (input.tag ?? null) : null,
  condition: input.condition,
  threshold: input.threshold,
  notifyEmail: input.notifyEmail,
  notifyWebhook: input.notifyWebhook,
  notifyToast: input.notifyToast,
  pause: input.pause,
});

async function nameFree<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw new Conflict(e.nameTaken, 'name');
    throw err;
  }
}

async function ensureNameFree(tx: Em, companyId: number, name: string, exceptId?: number) {
  const other = await tx.findOne(Rule, { company: companyId, name });
  if (other && other.id !== exceptId) throw new Conflict(e.nameTaken, 'name');
}

export async function createRule(em: Em, actor: RuleActor, input: RuleCreateInput): Promise<RuleView> {
  return nameFree(() =>
    em.transactional(async (tx) => {
      // One create at a time per company, so that two at once cannot pass the cap together.
      await tx.execute('select id from company where id = ? for update', [actor.companyId]);
      if ((await tx.count(Rule, { company: actor.companyId })) >= RULES_PER_COMPANY)
        throw new Conflict(e.tooMany(RULES_PER_COMPANY));
      await ensureNameFree(tx, actor.companyId, input.name);
      await checkRefs(tx, actor.companyId, input);
      const rule = tx.create(Rule, {
        company: tx.getReference(Company, actor.companyId),
        ...columns(input),
        targetPlan: input.target === 'plan' && input.planId ? tx.getReference(RatePlan, input.planId) : null,
        createdBy: actor.userId === null ? null : tx.getReference(User, actor.userId),
      });
      await tx.flush();
      for (const id of input.recipients) tx.create(RuleRecipient, { rule, user: tx.getReference(User, id) });
      await tx.flush();
      const view = await getRule(tx, actor.companyId, rule.id);
      audit(tx, actor, 'ruleCreated', rule.id, null, view);
      await tx.flush();
      return view;
    }),
  );
}

export async function updateRule(em: Em, actor: RuleActor, input: RuleUpdateInput): Promise<RuleView> {
  return nameFree(() =>
    em.transactional(async (tx) => {
      const rule = await tx.findOne(Rule, { id: input.id, company: actor.companyId });
      if (!rule) throw new NotFound(e.notFound);
      const before = await getRule(tx, actor.companyId, rule.id);
      await ensureNameFree(tx, actor.companyId, input.name, rule.id);
      await checkRefs(tx, actor.companyId, input);
      Object.assign(rule, columns(input));
      rule.targetPlan = input.target === 'plan' && input.planId ? tx.getReference(RatePlan, input.planId) : null;
      rule.updatedAt = new Date();
      await tx.nativeDelete(RuleRecipient, { rule: rule.id });
      for (const id of input.recipients) tx.create(RuleRecipient, { rule, user: tx.getReference(User, id) });
      await tx.flush();
      // Its silence sweep starts over (which SIMs and how long changed): the firings' key keeps a silence once.
      await tx.execute(`update rule_watch set silence_checked_until = null where rule_id = ?`, [rule.id]);
      const view = await getRule(tx, actor.companyId, rule.id);
      audit(tx, actor, 'ruleUpdated', rule.id, before, view);
      await tx.flush();
      return view;
    }),
  );
}

/** Deletes the rule with its recipients and firings (the SIMs it paused stay paused). */
export async function deleteRule(em: Em, actor: RuleActor, id: number): Promise<void> {
  await em.transactional(async (tx) => {
    const before = await getRule(tx, actor.companyId, id);
    recordAudit(tx, actor, {
      action: 'ruleDeleted',
      kind: 'rule',
      companyId: actor.companyId,
      targetType: 'Rule',
      targetId: id,
      before: snapshot(before),
      after: { name: before.name },
    });
    await tx.flush();
    await tx.execute('delete from rule where id = ? and company_id = ?', [id, actor.companyId]);
  });
}
