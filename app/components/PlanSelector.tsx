// The rate plan selector: "Datamängd" first, then tal & SMS and roaming as the rules allow; a field like the
// others (its legend the label, its errors under it, naming every option to change).
// Rule 1 holds from the first paint, with and without JS (decision 031): while no amount is chosen each box is
// disabled and says why (the spec's tooltip, also shown under the label). Without JS the server cannot know when
// the amount changes, so it draws both a disabled stand-in and the real box, and CSS on the select shows the one
// that is true (forms.css); once JS runs the stand-in goes and the real box is disabled itself, in the same place.
// The other rules (an option every remaining plan has is ticked and locked, one none has disabled) apply from the
// user's first change: the server cannot lock a box, and JS arriving must not switch or move what it drew.
import { useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import {
  dataAmounts,
  formatDataAmount,
  normalizeSelection,
  optionContext,
  shownRules,
  type OptionRule,
  type PlanOption,
  type Selection,
} from '#domain/plans/selector.ts';
import { t } from '#domain/texts/common.ts';

type Option = 'callAndSms' | 'roaming';
/** The root loader's answer as far as the selector reads it. */
type RootData = { priceListUrl?: string | null } | undefined;

/** A help text with its word "prislista" as a link to the price list (PRICE_LIST_URL), when there is one. */
function withPriceList(help: string, url: string | null | undefined): ReactNode {
  const at = help.indexOf(t.plans.priceList);
  if (!url || at < 0) return help;
  const end = at + t.plans.priceList.length;
  return (
    <>
      {help.slice(0, at)}
      <a href={url} target="_blank" rel="noopener noreferrer">
        {t.plans.priceList}
        <span className="visually-hidden"> {t.plans.priceListNewTab}</span>
      </a>
      {help.slice(end)}
    </>
  );
}
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
  const root: RootData = useRouteLoaderData('root');
  const priceList = root?.priceListUrl;
  const [sel, setSel] = useState<Selection>(initial);
  // The rules of an amount apply once the user changes something here: until then the boxes are as the server drew them.
  const [touched, setTouched] = useState(false);
  // JS has taken over (after hydration, which renders exactly the server's markup): rule 1 by the form's state.
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const change = (next: Selection) => {
    setTouched(true);
    setSel(normalizeSelection(plans, next));
  };
  const ids = planFieldIds(idPrefix);
  const rules = shownRules(plans, sel, touched);
  // The options to change, each with its message: both when both make the choice impossible.
  const optionErrors = (['callAndSms', 'roaming'] as const).filter((name) => errors[name]);
  const errorId = `${idPrefix}-error`;
  const option = (name: Option, label: string, help: string, needsAmount: string) => {
    const rule: OptionRule = enhanced ? rules[name] : 'free';
    const locked = rule === 'included';
    const needsAmountNow = rule === 'needsAmount';
    // Why a box is locked or disabled by the rules of the amount.
    const hint =
      rule === 'included'
        ? t.plans.included(optionContext(plans, sel, name))
        : rule === 'unavailable'
          ? t.plans.unavailable(optionContext(plans, sel, name))
          : null;
    const invalid = !!errors[name];
    return (
      <div className="check" title={needsAmountNow ? needsAmount : undefined}>
        {/* Without JS: the box shown while no amount is chosen (forms.css), disabled, named by the spec's tooltip;
            not posted. Its name is the tooltip, not the label, so the label names one control only. */}
        {!enhanced && !disabled ? (
          <input type="checkbox" className="needs-amount-box" disabled title={needsAmount} />
        ) : null}
        <input
          type="checkbox"
          id={ids[name]}
          name={name}
          value="true"
          checked={needsAmountNow ? false : sel[name]}
          disabled={disabled || rule !== 'free'}
          onChange={(e) => change({ ...sel, [name]: e.target.checked })}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={[
            needsAmountNow ? `${ids[name]}-needs-amount` : `${ids[name]}-help`,
            hint ? `${ids[name]}-rule` : null,
            invalid ? errorId : null,
          ]
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
          {/* The help, or while no amount is chosen why the box cannot be used: one place, the taller text's
              height, CSS shows the one that holds (forms.css), so nothing moves when the amount changes. */}
          <div className="plan-hints">
            <p id={`${ids[name]}-help`} className="hint plan-help">
              {withPriceList(help, priceList)}
            </p>
            <p id={`${ids[name]}-needs-amount`} className="hint plan-needs-amount">
              {needsAmount}
            </p>
          </div>
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
          {optionErrors.length === 1 && optionErrors[0]
            ? errors[optionErrors[0]]
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
