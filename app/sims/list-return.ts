// The list a SIM's page was opened from (issue 41: after a SIM, back to the list as it was, its search and page kept):
// carried as the page's `?list=` (app/sims/links.ts listOf writes it), read back here with only the list's own
// parameters. No dependencies: "< Backa" on every page uses it.

/** The parameters of the list a SIM's page was opened from, as its `?list=` carries them (nothing else). */
const LIST_KEYS = ['q', 'sort', 'filter', 'tag', 'status', 'page'];

/** The list of an address's `?list=`: only the list's own parameters, each as given (anything else is dropped). */
export function listFrom(search: string | URLSearchParams): string {
  const raw = (typeof search === 'string' ? new URLSearchParams(search) : search).get('list') ?? '';
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(raw.slice(0, 2000)))
    if (LIST_KEYS.includes(name)) kept.append(name, value.slice(0, 400));
  return kept.toString();
}

/** A SIM's page (or its deactivation's) that remembers the list it came from. */
export const withList = (path: string, list: string) => (list ? `${path}?${new URLSearchParams({ list })}` : path);

/** The list itself, as it was. */
export const listHref = (list: string) => (list ? `/sims?${list}` : '/sims');
