// The addresses /sims links to: a page of the list (with its search, view and tag filter), and the list's export;
// and the tags an address filters by.
import { LIST_STATES, type ListState as SimsState } from '#domain/sims/pause.ts';
import { TAGS_PER_FILTER, normalizeTag, tagSchema } from '#domain/sims/tags.ts';
import { DEFAULT_VIEW, viewParams, type ListView } from '#domain/sims/view.ts';

/**
 * The list as an address narrows it besides the search: the view (sort, usage filter), the tags and the state
 * (issue 40: active or paused SIMs only; left out, both).
 */
export type ListState = ListView & { tag?: readonly string[]; status?: SimsState | null };

/** The state of ?status= (active or paused), or null for both (anything else too). */
export function statusOf(url: URL): SimsState | null {
  const status = url.searchParams.get('status');
  return LIST_STATES.find((s) => s === status) ?? null;
}

/** The tags of ?tag= (the list has the SIMs with each of them): the first TAGS_PER_FILTER good ones, as stored. */
export function tagsOf(url: URL): string[] {
  const good = url.searchParams
    .getAll('tag')
    .filter((tag) => tagSchema.safeParse(tag).success)
    .map(normalizeTag);
  return [...new Set(good)].slice(0, TAGS_PER_FILTER);
}

/** The view's, the tag filter's and the state's query parameters, leaving out the defaults. */
export function stateParams(state: ListState, into = new URLSearchParams()): URLSearchParams {
  viewParams(state, into);
  for (const tag of state.tag ?? []) into.append('tag', tag);
  if (state.status) into.set('status', state.status);
  return into;
}

/** /sims with the search, the view, the tags and the page, leaving out what is the default (no search, page 1). */
export function pageHref(q: string, page: number, view: ListState = DEFAULT_VIEW) {
  const p = new URLSearchParams();
  if (q) p.set('q', q);
  stateParams(view, p);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `/sims?${s}` : '/sims';
}

/** The export of the list as it is searched, viewed and filtered by tag, as a CSV or an Excel file. */
export function exportHref(format: 'csv' | 'xlsx', q: string, view: ListState = DEFAULT_VIEW) {
  const p = new URLSearchParams({ format });
  if (q) p.set('q', q);
  stateParams(view, p);
  return `/api/sim/export?${p}`;
}

/**
 * The list as a SIM's page carries it (issue 41: after a SIM, back to the list as it was): its address's query, or ''
 * for the plain list (app/sims/list-return.ts reads it back).
 */
export function listOf(q: string, page: number, view: ListState = DEFAULT_VIEW): string {
  const href = pageHref(q, page, view);
  return href.includes('?') ? href.slice(href.indexOf('?') + 1) : '';
}
