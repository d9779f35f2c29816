// What /usage and its files split the company's usage by: rate plan, country or tag (issue 40). A SIM's own rows are
// GET /api/usage's (groupBy=sim) and the SIM page's.
export const PAGE_GROUPS = ['plan', 'country', 'tag'] as const;
export type PageGroup = (typeof PAGE_GROUPS)[number];

/** The grouping an address asks for: an unknown one is by plan. */
export const pageGroupOf = (value: string | null | undefined): PageGroup =>
  PAGE_GROUPS.find((g) => g === value) ?? 'plan';
