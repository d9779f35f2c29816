// How /sims, its export and the list's reads order and narrow the fleet (issue 39, docs/decisions/035): a sort
// (activation day, this month's usage, last seen; each either way) and at most one usage filter, both in the
// address (`sort`, `filter`), parsed here the same for the page, the file and the API. A filter leaves only the
// sorts its own index serves (the others would read the whole fleet): over 80 % sorts by usage, the silent ones
// by last seen, "never" by activation day; a sort it does not allow becomes its first.
import { z } from '#domain/zod.ts';

export const SORTS = ['activated-desc', 'activated-asc', 'usage-desc', 'usage-asc', 'seen-desc', 'seen-asc'] as const;
export type Sort = (typeof SORTS)[number];
export const FILTERS = ['over80', 'silent24h', 'silent7d', 'never'] as const;
export type Filter = (typeof FILTERS)[number];

export type ListView = { sort: Sort; filter: Filter | null };
export const DEFAULT_VIEW: ListView = { sort: 'activated-desc', filter: null };

/** The sorts each filter allows, its default first. */
export const FILTER_SORTS: Record<Filter, readonly Sort[]> = {
  over80: ['usage-desc', 'usage-asc'],
  silent24h: ['seen-desc', 'seen-asc'],
  silent7d: ['seen-desc', 'seen-asc'],
  never: ['activated-desc', 'activated-asc'],
};

/** The filter's silence: no record ended within this many hours (a SIM seen before, never the never-seen). */
export const SILENT_HOURS: Partial<Record<Filter, number>> = { silent24h: 24, silent7d: 7 * 24 };
/** "över 80 % av datamängden": this month's bytes over this share of the plan's data amount. */
export const OVER_SHARE = 0.8;

const isSort = (v: unknown): v is Sort => typeof v === 'string' && (SORTS as readonly string[]).includes(v);
const isFilter = (v: unknown): v is Filter => typeof v === 'string' && (FILTERS as readonly string[]).includes(v);

/** The view an address asks for, made whole: an unknown value is the default, a sort the filter does not allow its first. */
export function viewOf(sort: unknown, filter: unknown): ListView {
  const f = isFilter(filter) ? filter : null;
  const s = isSort(sort) ? sort : DEFAULT_VIEW.sort;
  if (f && !FILTER_SORTS[f].includes(s)) return { sort: FILTER_SORTS[f][0] ?? DEFAULT_VIEW.sort, filter: f };
  return { sort: s, filter: f };
}

export const isDefaultView = (v: ListView) => v.sort === DEFAULT_VIEW.sort && v.filter === null;

/** The view's query parameters, leaving out the defaults (so /sims stays /sims). */
export function viewParams(v: ListView, into = new URLSearchParams()): URLSearchParams {
  if (v.sort !== DEFAULT_VIEW.sort) into.set('sort', v.sort);
  if (v.filter) into.set('filter', v.filter);
  return into;
}

/** The view's fields of an input schema (tRPC, the export's query): strings as an address has them. */
export const viewFields = {
  sort: z.enum(SORTS).optional(),
  filter: z.enum(FILTERS).optional(),
};
