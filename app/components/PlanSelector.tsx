// The rate plan selector: "Datamängd" first, then tal & SMS and roaming as the rules allow; a field like the
// others (its legend the label, its errors under it, naming every option to change).
// The server renders every control enabled (without JS the amount can change after the page was made, so no lock
// could be right; the server checks the rules and says what to change), and JS keeps exactly that state when it
// arrives, so nothing on the page switches or moves then. From the user's first change on, the rules of
// domain/plans/selector.ts tick and lock an option every remaining plan has, and disable one none has. Before an
// amount is chosen the boxes look disabled by CSS alone (forms.css), with and without JS.
import { useState } from 'react';
import {
  dataAmounts,
  formatDataAmount,
  normalizeSelection,
  optionContext,
  optionRules,
  type OptionRule,
  type PlanOption,
  type Selection,
} from '#domain/plans/selector.ts';
import { t } from '#domain/texts/common.ts';

type Option = 'callAndSms' | 'roaming';
type Errors = Partial<Record<'dataLimit' | Option, string>>;

/** The ids of the selector's controls, for links to them (the error summary): `${prefix}-dataLimit` etc. */
export function planFieldIds(prefix = 'plan') {
  return { dataLimit: `${prefix}-dataLimit`, callAndSms: `${prefix}-callAndSms`, roaming: `${prefix}-roaming` };
}

export function PlanSelector({
  plans,
  initial,
  errors = {},
  disabled = false,
  idPrefix = 'plan',
}: {
  plans: PlanOption[];
  initial: Selection;
  errors?: Errors;
  disabled?: boolean;
  idPrefix?: string;
}) {
  const [sel, setSel] = useState<Selection>(initial);
  // The rules apply once the user changes something here: until then the boxes are as the server made them.
  const [touched, setTouched] = useState(false);
  const change = (next: Selection) => {
    setTouched(true);
    setSel(normalizeSelection(plans, next));
  };
  const ids = planFieldIds(idPrefix);
  const rules = optionRules(plans, sel);
  // The options to change, each with its message: both when both make the choice impossible.
  const optionErrors = (['callAndSms', 'roaming'] as const).filter((name) => errors[name]);
  const errorId = `${idPrefix}-error`;
  const option = (name: Option, label: string, help: string, needsAmount: string) => {
    const rule: OptionRule = touched ? rules[name] : 'free';
    const locked = rule === 'included';
    // Why a box is locked or disabled; before an amount is chosen the spec's own text stands in for the help.
    const hint =
      rule === 'included'
        ? t.plans.included(optionContext(plans, sel, name))
        : rule === 'unavailable'
          ? t.plans.unavailable(optionContext(plans, sel, name))
          : null;
    const invalid = !!errors[name];
    return (
      <div className="check" title={sel.dataLimit === null ? needsAmount : undefined}>
        <input
          type="checkbox"
          id={ids[name]}
          name={name}
          value="true"
          checked={sel[name]}
          disabled={disabled || rule !== 'free'}
          onChange={(e) => change({ ...sel, [name]: e.target.checked })}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[`${ids[name]}-help`, hint ? `${ids[name]}-rule` : null, invalid ? errorId : null]
            .filter(Boolean)
            .join(' ')}
        />
        {/* A disabled box is not posted: a locked option still is. */}
        {locked && !disabled ? <input type="hidden" name={name} value="true" /> : null}
        <div>
          <label htmlFor={ids[name]}>{label}</label>
          {hint ? (
            <p id={`${ids[name]}-rule`} className="hint">
              {hint}
            </p>
          ) : null}
          <p id={`${ids[name]}-help`} className="hint">
            {rule === 'needsAmount' ? needsAmount : help}
          </p>
        </div>
      </div>
    );
  };
  return (
    <fieldset
      id={idPrefix}
      className={optionErrors.length || errors.dataLimit ? 'field plan-selector invalid' : 'field plan-selector'}
      aria-describedby={optionErrors.length ? errorId : undefined}
    >
      <legend>{t.plans.legend}</legend>
      <div className="plan-amount">
        <label htmlFor={ids.dataLimit}>{t.plans.placeholder}</label>
        <select
          id={ids.dataLimit}
          name="dataLimit"
          required
          disabled={disabled}
          value={sel.dataLimit ?? ''}
          onChange={(e) => change({ ...sel, dataLimit: e.target.value ? Number(e.target.value) : null })}
          aria-invalid={errors.dataLimit ? true : undefined}
          aria-describedby={errors.dataLimit ? `${ids.dataLimit}-error` : undefined}
        >
          <option value="">{t.plans.placeholder}</option>
          {dataAmounts(plans).map((mb) => (
            <option key={mb} value={mb}>
              {formatDataAmount(mb)}
            </option>
          ))}
        </select>
        {errors.dataLimit ? (
          <p id={`${ids.dataLimit}-error`} className="error">
            {errors.dataLimit}
          </p>
        ) : null}
      </div>
      {option('callAndSms', t.plans.callAndSms, t.plans.callAndSmsHelp, t.plans.callAndSmsNeedsAmount)}
      {option('roaming', t.plans.roaming, t.plans.roamingHelp, t.plans.roamingNeedsAmount)}
      {optionErrors.length ? (
        <p id={errorId} className="error">
          {optionErrors.length === 1
            ? errors[optionErrors[0]!]
            : optionErrors.map((name) => (
                <span key={name} className="error-line">
                  {errors[name]}
                </span>
              ))}
        </p>
      ) : null}
    </fieldset>
  );
}
