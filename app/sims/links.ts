// The addresses /sims links to: a page of the list (with its search), and the list's export.

/** /sims with the search and the page, leaving out what is the default (no search, page 1). */
export function pageHref(q: string, page: number) {
  const p = new URLSearchParams();
  if (q) p.set('q', q);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `/sims?${s}` : '/sims';
}

/** The export of the list as it is searched, as a CSV or an Excel file. */
export function exportHref(format: 'csv' | 'xlsx', q: string) {
  const p = new URLSearchParams({ format });
  if (q) p.set('q', q);
  return `/api/sim/export?${p}`;
}
