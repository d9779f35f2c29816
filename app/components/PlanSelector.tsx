// The rate plan selector: "Datamängd" first, then tal & SMS and roaming as the rules allow.
// Server-rendered with every control enabled (so it works without JS; the server checks the rules);
// once JS runs, the rules of server/plans/selector.ts disable what is not possible and clear it.
import { useEffect, useId, useState } from 'react';
import {
  canCallAndSms, canRoaming, dataAmounts, formatDataAmount, normalizeSelection, selectorTexts as st,
  type PlanOption, type Selection,
} from '../../server/plans/selector';

type Errors = Partial<Record<'dataLimit' | 'callAndSms' | 'roaming', string>>;

export function PlanSelector({ plans, initial, errors = {}, disabled = false }: { plans: PlanOption[]; initial: Selection; errors?: Errors; disabled?: boolean }) {
  const [sel, setSel] = useState<Selection>(initial);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = useId();
  const update = (next: Selection) => setSel(normalizeSelection(plans, next));
  const noAmount = sel.dataLimit === null;
  const callOk = canCallAndSms(plans, sel.dataLimit);
  const roamOk = canRoaming(plans, sel.dataLimit, sel.callAndSms);
  const callDisabled = disabled || (hydrated && !callOk);
  const roamDisabled = disabled || (hydrated && !roamOk);
  return (
    <fieldset className="plan-selector">
      <legend>Abonnemang</legend>
      <div className="field">
        <label htmlFor={`${id}-data`}>{st.placeholder}</label>
        <select
          id={`${id}-data`}
          name="dataLimit"
          required
          disabled={disabled}
          value={sel.dataLimit ?? ''}
          onChange={(e) => update({ ...sel, dataLimit: e.target.value ? Number(e.target.value) : null })}
          aria-invalid={errors.dataLimit ? true : undefined}
          aria-describedby={errors.dataLimit ? `${id}-data-error` : undefined}
        >
          <option value="">{st.placeholder}</option>
          {dataAmounts(plans).map((mb) => (
            <option key={mb} value={mb}>{formatDataAmount(mb)}</option>
          ))}
        </select>
        {errors.dataLimit ? <p id={`${id}-data-error`} className="error">{errors.dataLimit}</p> : null}
      </div>
      <div className="check" title={hydrated && noAmount ? st.callAndSmsNeedsAmount : undefined}>
        <input
          type="checkbox"
          id={`${id}-call`}
          name="callAndSms"
          value="true"
          checked={sel.callAndSms}
          disabled={callDisabled}
          onChange={(e) => update({ ...sel, callAndSms: e.target.checked })}
          aria-describedby={`${id}-call-help${errors.callAndSms ? ` ${id}-call-error` : ''}`}
        />
        <div>
          <label htmlFor={`${id}-call`}>{st.callAndSms}</label>
          <p id={`${id}-call-help`} className="hint">{hydrated && noAmount ? st.callAndSmsNeedsAmount : st.callAndSmsHelp}</p>
          {errors.callAndSms ? <p id={`${id}-call-error`} className="error">{errors.callAndSms}</p> : null}
        </div>
      </div>
      <div className="check" title={hydrated && noAmount ? st.roamingNeedsAmount : undefined}>
        <input
          type="checkbox"
          id={`${id}-roam`}
          name="roaming"
          value="true"
          checked={sel.roaming}
          disabled={roamDisabled}
          onChange={(e) => update({ ...sel, roaming: e.target.checked })}
          aria-describedby={`${id}-roam-help${errors.roaming ? ` ${id}-roam-error` : ''}`}
        />
        <div>
          <label htmlFor={`${id}-roam`}>{st.roaming}</label>
          <p id={`${id}-roam-help`} className="hint">{hydrated && noAmount ? st.roamingNeedsAmount : st.roamingHelp}</p>
          {errors.roaming ? <p id={`${id}-roam-error`} className="error">{errors.roaming}</p> : null}
        </div>
      </div>
    </fieldset>
  );
}
