// Long: one form of four groups (the name, which SIMs, when, what), each choice with the fields it needs beside it.
// A rule's form (issue 40), to make one (/company/rules) or change one (/company/rules/{id}): the name; which SIMs
// (all, with a tag: one of the company's or a new one, on a plan); when (a share of the plan's data amount, an amount
// in the month or in a day, a time without traffic); what (e-mail to chosen users, webhook, toast, pause). Plain
// fields and radios: works without JS; each error stands next to its field and in the summary at the top.
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { TextField } from '#app/components/TextField.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import type { FieldConstraint } from '#app/utils/constraints.ts';
import { SHARE_MAX, SHARE_MIN, type RuleCondition } from '#domain/rules/kinds.ts';
import { TAG_MAX } from '#domain/sims/tags.ts';
import { tRules } from '#domain/texts/rules.ts';
import { AMOUNT_FIELDS, type RuleFormValues } from './rule-form.ts';

const r = tRules;

/** The id of the control a field's error links to. */
export const ruleFieldId = (field: string, condition: string): string => {
  if (field === 'threshold') {
    const fields = AMOUNT_FIELDS[condition as RuleCondition] ?? AMOUNT_FIELDS.month_share;
    return `rule-${fields.amount}`;
  }
  if (field === 'target') return 'rule-target-all';
  if (field === 'condition') return 'rule-condition-month_share';
  return `rule-${field}`;
};

type Choice = { value: string; label: string };

function GroupError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className="error">
      {error}
    </p>
  ) : null;
}

function Radio({
  name,
  value,
  label,
  checked,
  children,
}: {
  name: string;
  value: string;
  label: string;
  checked: boolean;
  children?: ReactNode;
}) {
  const id = `rule-${name}-${value}`;
  return (
    <div className="rules-choice">
      <div className="check">
        <input id={id} type="radio" name={name} value={value} defaultChecked={checked} />
        <label htmlFor={id}>{label}</label>
      </div>
      {children ? <div className="rules-choice-fields">{children}</div> : null}
    </div>
  );
}

/** An amount with its unit: a number field and a select, the error below both. */
function Amount({
  amountName,
  unitName,
  label,
  unitLabel,
  values,
  units,
  error,
}: {
  amountName: keyof RuleFormValues;
  unitName: keyof RuleFormValues | null;
  label: string;
  unitLabel: string;
  values: RuleFormValues;
  units: Choice[];
  error?: string;
}) {
  const id = `rule-${amountName}`;
  return (
    <div className={error ? 'rules-amount invalid' : 'rules-amount'}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={amountName}
          inputMode="decimal"
          autoComplete="off"
          maxLength={20}
          defaultValue={String(values[amountName])}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {unitName ? (
        <div className="field">
          <label htmlFor={`rule-${unitName}`}>{unitLabel}</label>
          <select id={`rule-${unitName}`} name={unitName} defaultValue={String(values[unitName])}>
            {units.map((u) => (
              <option key={u.value} value={u.value}>
                {u.label}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <span className="rules-unit" aria-hidden="true">
          %
        </span>
      )}
      {error ? (
        <p id={`${id}-error`} className="error rules-amount-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function RuleForm({
  values,
  errors,
  tags,
  plans,
  users,
  nameConstraint,
  busy,
  submitLabel,
  intent,
  withEnabled,
}: {
  values: RuleFormValues;
  errors: Record<string, string> | null;
  tags: string[];
  plans: Array<{ id: number; code: string; description: string }>;
  users: Array<{ id: number; name: string }>;
  nameConstraint: FieldConstraint;
  busy: boolean;
  submitLabel: string;
  intent: string;
  withEnabled?: boolean;
}) {
  const e: Record<string, string | undefined> = errors ?? {};
  const chosen = new Set(values.recipients);
  const amountError = (c: RuleCondition) => (values.condition === c ? e.threshold : undefined);
  const bytes = [
    { value: 'MB', label: r.units.MB ?? 'MB' },
    { value: 'GB', label: r.units.GB ?? 'GB' },
  ];
  const times = [
    { value: 'hours', label: r.units.hours ?? '' },
    { value: 'days', label: r.units.days ?? '' },
  ];
  const summaryFields = Object.fromEntries(
    ['name', 'target', 'tag', 'planId', 'condition', 'threshold', 'actions', 'recipients'].map((k) => [
      k,
      { id: ruleFieldId(k, values.condition) },
    ]),
  );
  return (
    <>
      <ErrorSummary errors={errors} fields={summaryFields} />
      <Form method="post" noValidate className="rules-form">
        <input type="hidden" name="intent" value={intent} />
        <TextField
          id="rule-name"
          name="name"
          label={r.name}
          hint={r.nameHint}
          {...nameConstraint}
          autoComplete="off"
          defaultValue={values.name}
          error={e.name}
        />

        <fieldset className="rules-group" aria-describedby={e.target ? 'rule-target-error' : undefined}>
          <legend>{r.simsLegend}</legend>
          <Radio name="target" value="all" label={r.targetAll} checked={values.target === 'all'} />
          <Radio name="target" value="tag" label={r.targetTag} checked={values.target === 'tag'}>
            <TextField
              id="rule-tag"
              name="tag"
              label={r.tagLabel}
              hint={r.tagHint}
              list="rule-tags"
              maxLength={TAG_MAX}
              autoComplete="off"
              defaultValue={values.tag}
              error={e.tag}
            />
            <datalist id="rule-tags">
              {tags.map((t) => (
                <option key={t} value={t} />
              ))}
            </datalist>
          </Radio>
          <Radio name="target" value="plan" label={r.targetPlan} checked={values.target === 'plan'}>
            <div className={e.planId ? 'field invalid' : 'field'}>
              <label htmlFor="rule-planId">{r.planLabel}</label>
              <select
                id="rule-planId"
                name="planId"
                defaultValue={values.planId}
                aria-invalid={e.planId ? true : undefined}
                aria-describedby={e.planId ? 'rule-planId-error' : undefined}
              >
                <option value="">{r.choosePlan}</option>
                {plans.map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.code} – {p.description}
                  </option>
                ))}
              </select>
              <GroupError id="rule-planId-error" error={e.planId} />
            </div>
          </Radio>
          <GroupError id="rule-target-error" error={e.target} />
        </fieldset>

        <fieldset className="rules-group" aria-describedby={e.condition ? 'rule-condition-error' : undefined}>
          <legend>{r.conditionLegend}</legend>
          <Radio
            name="condition"
            value="month_share"
            label={r.conditionShare}
            checked={values.condition === 'month_share'}
          >
            <Amount
              amountName="share"
              unitName={null}
              label={r.shareLabel}
              unitLabel=""
              values={values}
              units={[]}
              error={amountError('month_share')}
            />
            <p className="hint rules-bounds">{`${SHARE_MIN}–${SHARE_MAX} %`}</p>
          </Radio>
          <Radio
            name="condition"
            value="month_bytes"
            label={r.conditionMonth}
            checked={values.condition === 'month_bytes'}
          >
            <Amount
              amountName="monthAmount"
              unitName="monthUnit"
              label={r.monthAmountLabel}
              unitLabel={r.monthUnitLabel}
              values={values}
              units={bytes}
              error={amountError('month_bytes')}
            />
          </Radio>
          <Radio name="condition" value="day_bytes" label={r.conditionDay} checked={values.condition === 'day_bytes'}>
            <Amount
              amountName="dayAmount"
              unitName="dayUnit"
              label={r.dayAmountLabel}
              unitLabel={r.dayUnitLabel}
              values={values}
              units={bytes}
              error={amountError('day_bytes')}
            />
          </Radio>
          <Radio name="condition" value="silent" label={r.conditionSilent} checked={values.condition === 'silent'}>
            <Amount
              amountName="silentAmount"
              unitName="silentUnit"
              label={r.silentAmountLabel}
              unitLabel={r.silentUnitLabel}
              values={values}
              units={times}
              error={amountError('silent')}
            />
          </Radio>
          <GroupError id="rule-condition-error" error={e.condition} />
        </fieldset>

        <fieldset
          id="rule-actions"
          className="rules-group"
          aria-describedby={e.actions ? 'rule-actions-error' : undefined}
        >
          <legend>{r.actionsLegend}</legend>
          <div className="check">
            <input
              id="rule-notifyEmail"
              type="checkbox"
              name="notifyEmail"
              defaultChecked={values.notifyEmail}
              aria-describedby="rule-notifyEmail-hint"
            />
            <div>
              <label htmlFor="rule-notifyEmail">{r.notifyEmail}</label>
              <p id="rule-notifyEmail-hint" className="hint">
                {r.notifyEmailHint}
              </p>
            </div>
          </div>
          <fieldset
            id="rule-recipients"
            className="rules-recipients"
            aria-describedby={e.recipients ? 'rule-recipients-error' : undefined}
          >
            <legend>{r.recipientsLegend}</legend>
            {users.map((u) => (
              <div className="check" key={u.id}>
                <input
                  id={`rule-recipient-${u.id}`}
                  type="checkbox"
                  name="recipients"
                  value={String(u.id)}
                  defaultChecked={chosen.has(String(u.id))}
                  aria-invalid={e.recipients ? true : undefined}
                />
                <label htmlFor={`rule-recipient-${u.id}`}>{u.name}</label>
              </div>
            ))}
            <GroupError id="rule-recipients-error" error={e.recipients} />
          </fieldset>
          {(['notifyWebhook', 'notifyToast', 'pause'] as const).map((k) => (
            <div className="check" key={k}>
              <input id={`rule-${k}`} type="checkbox" name={k} defaultChecked={values[k]} />
              <label htmlFor={`rule-${k}`}>{r[k]}</label>
            </div>
          ))}
          <GroupError id="rule-actions-error" error={e.actions} />
        </fieldset>

        {withEnabled ? (
          <div className="check">
            <input id="rule-enabled" type="checkbox" name="enabled" defaultChecked={values.enabled} />
            <label htmlFor="rule-enabled">{r.enabledLabel}</label>
          </div>
        ) : null}
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </Form>
    </>
  );
}
