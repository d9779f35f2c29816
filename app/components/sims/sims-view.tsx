// The view's controls of /sims (issue 39): the sort and the usage filter as two plain selects of the search's own
// GET form, so that a search keeps the view and a view keeps the search, with or without JS; with JS a choice
// applies at once (the button stays, so nothing moves when JS arrives).
import { useSubmit } from '@remix-run/react';
import type { ChangeEvent } from 'react';
import type { ListState } from '#app/sims/links.ts';
import { FILTERS, SORTS } from '#domain/sims/view.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { tTags } from '#domain/texts/tags.ts';
import { tPause } from '#domain/texts/pause.ts';

/**
 * `tags`: the company's tags, for the select "Tagg" (issue 40; one tag from here, several through the address). On a
 * phone it shows as the others do, for a view other than the default: a tag on a SIM's page links to its list.
 */
/** A select's change applied at once (with JS): the form's fields, the state select's too (it is the form's by id). */
function useApply() {
  const submit = useSubmit();
  return (e: ChangeEvent<HTMLSelectElement>) => {
    const form = e.currentTarget.form;
    if (!form) return;
    // Only what differs from the default goes into the address (as pageHref writes it); a new view starts at page 1.
    const data = new FormData(form);
    const params = new URLSearchParams();
    for (const [key, value] of data)
      if (typeof value === 'string' && value && !(key === 'sort' && value === SORTS[0])) params.append(key, value);
    submit(params, { method: 'get', action: '/sims', preventScrollReset: true });
  };
}

/**
 * "Status" (issue 40): active and paused SIMs, or only one of them. It stands beside the count (the search's line has
 * no room for a fourth select on a 1280 px screen) and belongs to the search's GET form by its id, so a search keeps
 * it and it keeps the search, with or without JS. A phone shows it only when it narrows the list, as the others.
 */
export function StateFilter({ status, form }: { status: ListState['status']; form: string }) {
  const apply = useApply();
  return (
    <label className={status ? 'sims-state-filter' : 'sims-state-filter sims-view-default'}>
      <span>{tPause.stateLabel}</span>
      <select name="status" form={form} key={`st-${status ?? ''}`} defaultValue={status ?? ''} onChange={apply}>
        <option value="">{tPause.allStates}</option>
        <option value="active">{tPause.onlyActive}</option>
        <option value="paused">{tPause.onlyPaused}</option>
      </select>
    </label>
  );
}

export function SimsViewControls({ view, tags }: { view: ListState; tags: readonly string[] }) {
  const apply = useApply();
  const tag = view.tag?.[0] ?? '';
  // A tag of the address that no SIM has (any more) stays choosable, so the select shows what the list is.
  const options = tag && !tags.includes(tag) ? [tag, ...tags] : tags;
  return (
    // A phone shows the controls only for a view other than the default (its column headers sort; the home page's
    // links filter), so that the rows stay near the top (tests/e2e/sims-surface.test.ts).
    <div
      className={
        view.filter || view.sort !== SORTS[0] || tag || view.status ? 'sims-view' : 'sims-view sims-view-default'
      }
    >
      {options.length ? (
        <label className="sims-tag-filter">
          <span>{tTags.filterLabel}</span>
          <select name="tag" key={`t-${tag}`} defaultValue={tag} onChange={apply}>
            <option value="">{tTags.filterAll}</option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
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
