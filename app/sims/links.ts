// The addresses /sims links to: a page of the list (with its search and view), and the list's export.
import { DEFAULT_VIEW, viewParams, type ListView } from '#domain/sims/view.ts';

/** /sims with the search, the view and the page, leaving out what is the default (no search, page 1). */
export function pageHref(q: string, page: number, view: ListView = DEFAULT_VIEW) {
  const p = new URLSearchParams();
  if (q) p.set('q', q);
  viewParams(view, p);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `/sims?${s}` : '/sims';
}

/** The export of the list as it is searched and viewed, as a CSV or an Excel file. */
export function exportHref(format: 'csv' | 'xlsx', q: string, view: ListView = DEFAULT_VIEW) {
  const p = new URLSearchParams({ format });
  if (q) p.set('q', q);
  viewParams(view, p);
  return `/api/sim/export?${p}`;
}
