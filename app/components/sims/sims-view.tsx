// The view's controls of /sims (issue 39): the sort and the usage filter as two plain selects of the search's own
// GET form, so that a search keeps the view and a view keeps the search, with or without JS; with JS a choice
// applies at once (the button stays, so nothing moves when JS arrives).
import { useSubmit } from '@remix-run/react';
import type { ChangeEvent } from 'react';
import { FILTERS, SORTS, type ListView } from '#domain/sims/view.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';

export function SimsViewControls({ view }: { view: ListView }) {
  const submit = useSubmit();
  const apply = (e: ChangeEvent<HTMLSelectElement>) => {
    const form = e.currentTarget.form;
    if (!form) return;
    // Only what differs from the default goes into the address (as pageHref writes it); a new view starts at page 1.
    const data = new FormData(form);
    const params: Record<string, string> = {};
    for (const [key, value] of data)
      if (typeof value === 'string' && value && !(key === 'sort' && value === SORTS[0])) params[key] = value;
    submit(params, { method: 'get', action: '/sims', preventScrollReset: true });
  };
  return (
    // A phone shows the controls only for a view other than the default (its column headers sort; the home page's
    // links filter), so that the rows stay near the top (tests/e2e/sims-surface.test.ts).
    <div className={view.filter || view.sort !== SORTS[0] ? 'sims-view' : 'sims-view sims-view-default'}>
      <label>
        <span>{tFleetUsage.filterLabel}</span>
        <select name="filter" key={`f-${view.filter ?? ''}`} defaultValue={view.filter ?? ''} onChange={apply}>
          <option value="">{tFleetUsage.all}</option>
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {tFleetUsage.filters[f]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>{tFleetUsage.sortLabel}</span>
        <select name="sort" key={`s-${view.sort}`} defaultValue={view.sort} onChange={apply}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {tFleetUsage.sorts[s]}
            </option>
          ))}
        </select>
      </label>
      <button className="btn btn-small" type="submit">
        {tFleetUsage.apply}
      </button>
    </div>
  );
}
