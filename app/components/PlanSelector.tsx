// The rate plan selector: "Datamängd" first, then tal & SMS and roaming as the rules allow.
// Server-rendered with every control enabled (without JS the amount can change after the page was made, so
// no lock could be right; the server checks the rules and says what to change). Once JS runs, the rules of
// domain/plans/selector.ts tick and lock an option every remaining plan has, and disable one none has.
import { useEffect, useId, useState } from 'react';
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

export function PlanSelector({
  plans,
  initial,
  errors = {},
  disabled = false,
}: {
  plans: PlanOption[];
  initial: Selection;
  errors?: Errors;
  disabled?: boolean;
}) {
  const [sel, setSel] = useState<Selection>(initial);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    setSel((s) => normalizeSelection(plans, s));
  }, [plans]);
  const id = useId();
  const rules = optionRules(plans, sel);
  // A refused option: the message stands at the top of the fieldset, which points to it, and the box is marked.
  const planError = errors.callAndSms ?? errors.roaming;
  const errorId = `${id}-plan-error`;
  const option = (name: Option, label: string, help: string, needsAmount: string) => {
    const rule: OptionRule = hydrated ? rules[name] : 'free';
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
      <div className="check" title={rule === 'needsAmount' ? needsAmount : undefined}>
        <input
          type="checkbox"
          id={`${id}-${name}`}
          name={name}
          value="true"
          checked={sel[name]}
          disabled={disabled || rule !== 'free'}
          onChange={(e) => setSel(normalizeSelection(plans, { ...sel, [name]: e.target.checked }))}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[`${id}-${name}-help`, hint ? `${id}-${name}-rule` : null, invalid ? errorId : null]
            .filter(Boolean)
            .join(' ')}
        />
        {/* A disabled box is not posted: a locked option still is. */}
        {locked && !disabled ? <input type="hidden" name={name} value="true" /> : null}
        <div>
          <label htmlFor={`${id}-${name}`}>{label}</label>
          {hint ? (
            <p id={`${id}-${name}-rule`} className="hint">
              {hint}
            </p>
          ) : null}
          <p id={`${id}-${name}-help`} className="hint">
            {rule === 'needsAmount' ? needsAmount : help}
          </p>
        </div>
      </div>
    );
  };
  return (
    <fieldset
      className={planError ? 'plan-selector invalid' : 'plan-selector'}
      aria-describedby={planError ? errorId : undefined}
    >
      <legend>{t.plans.legend}</legend>
      {planError ? (
        <p id={errorId} className="error">
          {planError}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-data`}>{t.plans.placeholder}</label>
        <select
          id={`${id}-data`}
          name="dataLimit"
          required
          disabled={disabled}
          value={sel.dataLimit ?? ''}
          onChange={(e) =>
            setSel(normalizeSelection(plans, { ...sel, dataLimit: e.target.value ? Number(e.target.value) : null }))
          }
          aria-invalid={errors.dataLimit ? true : undefined}
          aria-describedby={errors.dataLimit ? `${id}-data-error` : undefined}
        >
          <option value="">{t.plans.placeholder}</option>
          {dataAmounts(plans).map((mb) => (
            <option key={mb} value={mb}>
              {formatDataAmount(mb)}
            </option>
          ))}
        </select>
        {errors.dataLimit ? (
          <p id={`${id}-data-error`} className="error">
            {errors.dataLimit}
          </p>
        ) : null}
      </div>
      {option('callAndSms', t.plans.callAndSms, t.plans.callAndSmsHelp, t.plans.callAndSmsNeedsAmount)}
      {option('roaming', t.plans.roaming, t.plans.roamingHelp, t.plans.roamingNeedsAmount)}
    </fieldset>
  );
}
