// A rule's form as plain fields (issue 40): what the page posts (without JS too), read into the procedure's input,
// and a stored rule turned back into the form's values. The form takes amounts in MB/GB and times in hours/days
// (domain/rules/schemas.ts thresholdFromForm); the procedure checks every bound.
import { RULE_CONDITIONS, RULE_TARGETS, type RuleCondition, type RuleTarget } from '#domain/rules/kinds.ts';
import { thresholdFromForm, thresholdToForm, type RuleView } from '#domain/rules/schemas.ts';
import { DRAFT_FLAG } from '#app/utils/step-up.ts';

export type RuleFormValues = {
  name: string;
  target: string;
  tag: string;
  planId: string;
  condition: string;
  share: string;
  monthAmount: string;
  monthUnit: string;
  dayAmount: string;
  dayUnit: string;
  silentAmount: string;
  silentUnit: string;
  notifyEmail: boolean;
  notifyWebhook: boolean;
  notifyToast: boolean;
  pause: boolean;
  recipients: string[];
  enabled: boolean;
};

/** The form's fields that hold a condition's amount and unit. */
export const AMOUNT_FIELDS: Record<RuleCondition, { amount: keyof RuleFormValues; unit: keyof RuleFormValues | null }> =
  {
    month_share: { amount: 'share', unit: null },
    month_bytes: { amount: 'monthAmount', unit: 'monthUnit' },
    day_bytes: { amount: 'dayAmount', unit: 'dayUnit' },
    silent: { amount: 'silentAmount', unit: 'silentUnit' },
  };

export const emptyRuleForm = (): RuleFormValues => ({
  name: '',
  target: 'all',
  tag: '',
  planId: '',
  condition: 'month_share',
  share: '80',
  monthAmount: '',
  monthUnit: 'GB',
  dayAmount: '',
  dayUnit: 'MB',
  silentAmount: '24',
  silentUnit: 'hours',
  notifyEmail: false,
  notifyWebhook: false,
  notifyToast: true,
  pause: false,
  recipients: [],
  enabled: true,
});

const text = (form: FormData, name: string, max = 200) => {
  const v = form.get(name);
  return typeof v === 'string' ? v.slice(0, max) : '';
};

/** What was posted, bounded (a long value is cut: the procedure refuses what is still too long). */
export function ruleFormValues(form: FormData): RuleFormValues {
  return {
    name: text(form, 'name', 1000),
    target: text(form, 'target'),
    tag: text(form, 'tag', 1000),
    planId: text(form, 'planId'),
    condition: text(form, 'condition'),
    share: text(form, 'share'),
    monthAmount: text(form, 'monthAmount'),
    monthUnit: text(form, 'monthUnit'),
    dayAmount: text(form, 'dayAmount'),
    dayUnit: text(form, 'dayUnit'),
    silentAmount: text(form, 'silentAmount'),
    silentUnit: text(form, 'silentUnit'),
    notifyEmail: form.get('notifyEmail') === 'on',
    notifyWebhook: form.get('notifyWebhook') === 'on',
    notifyToast: form.get('notifyToast') === 'on',
    pause: form.get('pause') === 'on',
    recipients: form
      .getAll('recipients')
      .filter((v): v is string => typeof v === 'string')
      .slice(0, 200),
    enabled: form.get('enabled') === 'on',
  };
}

export type RuleFormInput = {
  name: string;
  target: RuleTarget;
  tag: string | null;
  planId: number | null;
  condition: RuleCondition;
  threshold: number;
  notifyEmail: boolean;
  notifyWebhook: boolean;
  notifyToast: boolean;
  pause: boolean;
  recipients: number[];
  enabled: boolean;
};

/**
 * The procedure's input, and what the form itself refuses first (an amount that is not a number, no unit): then
 * the threshold sent is -1, which the procedure refuses too, so the page still hears about every other field and
 * shows the form's own message on the amount. Bounds and the rest are the procedure's to say. An unknown target or
 * condition is passed on as it is: the procedure refuses it next to its field.
 */
export function ruleInputOf(v: RuleFormValues): { input: RuleFormInput; errors: Record<string, string> } {
  const condition = v.condition as RuleCondition;
  let threshold = -1;
  const errors: Record<string, string> = {};
  if (RULE_CONDITIONS.includes(condition)) {
    const fields = AMOUNT_FIELDS[condition];
    const unit = fields.unit ? String(v[fields.unit]) : '%';
    const r = thresholdFromForm(condition, String(v[fields.amount]), unit);
    if ('error' in r) errors.threshold = r.error;
    else threshold = r.threshold;
  }
  const target = v.target as RuleTarget;
  return {
    errors,
    input: {
      name: v.name,
      target,
      tag: target === 'tag' ? v.tag : null,
      planId: target === 'plan' ? (/^\d{1,10}$/.test(v.planId) ? Number(v.planId) : 0) : null,
      condition,
      threshold,
      notifyEmail: v.notifyEmail,
      notifyWebhook: v.notifyWebhook,
      notifyToast: v.notifyToast,
      pause: v.pause,
      // Recipients count only with the e-mail (a ticked box left from before is not a refusal).
      recipients: v.notifyEmail ? v.recipients.filter((r) => /^\d{1,10}$/.test(r)).map(Number) : [],
      enabled: v.enabled,
    },
  };
}

/** A stored rule as the form shows it. */
export function ruleFormOf(rule: RuleView): RuleFormValues {
  const values = emptyRuleForm();
  const { amount, unit } = thresholdToForm(rule.condition, rule.threshold);
  const fields = AMOUNT_FIELDS[rule.condition];
  return {
    ...values,
    name: rule.name,
    target: rule.target,
    tag: rule.tag ?? '',
    planId: rule.planId === null ? '' : String(rule.planId),
    condition: rule.condition,
    [fields.amount]: amount,
    ...(fields.unit ? { [fields.unit]: unit } : {}),
    notifyEmail: rule.notifyEmail,
    notifyWebhook: rule.notifyWebhook,
    notifyToast: rule.notifyToast,
    pause: rule.pause,
    recipients: rule.recipients.map((r) => String(r.id)),
    enabled: rule.enabled,
  };
}

/** The form's values as the step-up's draft keeps them in the address (app/utils/step-up.ts). */
export function ruleDraft(v: RuleFormValues): Record<string, string | string[]> {
  const flags = (['notifyEmail', 'notifyWebhook', 'notifyToast', 'pause', 'enabled'] as const).filter((k) => v[k]);
  return {
    name: v.name,
    target: v.target,
    tag: v.tag,
    planId: v.planId,
    condition: v.condition,
    share: v.share,
    monthAmount: v.monthAmount,
    monthUnit: v.monthUnit,
    dayAmount: v.dayAmount,
    dayUnit: v.dayUnit,
    silentAmount: v.silentAmount,
    silentUnit: v.silentUnit,
    flags,
    recipients: v.recipients,
  };
}

/** The draft in a page's address back as the form's values (null: none). */
export function ruleFormOfDraft(url: URL): RuleFormValues | null {
  if (url.searchParams.get(DRAFT_FLAG) !== '1') return null;
  const get = (k: string) => (url.searchParams.get(k) ?? '').slice(0, 1000);
  const flags = new Set(url.searchParams.getAll('flags'));
  return {
    name: get('name'),
    target: RULE_TARGETS.includes(get('target') as RuleTarget) ? get('target') : 'all',
    tag: get('tag'),
    planId: get('planId'),
    condition: RULE_CONDITIONS.includes(get('condition') as RuleCondition) ? get('condition') : 'month_share',
    share: get('share'),
    monthAmount: get('monthAmount'),
    monthUnit: get('monthUnit'),
    dayAmount: get('dayAmount'),
    dayUnit: get('dayUnit'),
    silentAmount: get('silentAmount'),
    silentUnit: get('silentUnit'),
    notifyEmail: flags.has('notifyEmail'),
    notifyWebhook: flags.has('notifyWebhook'),
    notifyToast: flags.has('notifyToast'),
    pause: flags.has('pause'),
    recipients: url.searchParams.getAll('recipients').slice(0, 200),
    enabled: flags.has('enabled'),
  };
}
