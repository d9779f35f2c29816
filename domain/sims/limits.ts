// The SIM operations' bounds and outcome names, apart from their zod schemas (schemas.ts) and importing
// nothing: pages and components import them from here, so no zod reaches a route's browser JS.

/**
 * The most characters an ICCID may have as typed or pasted (digit groups with spaces, a scanner's extras) before
 * its spaces are removed: the schemas' bound and, read from them, the ICCID field's maxLength.
 */
export const ICCID_TYPED_MAX = 100;

/** The longest invoice line mark or comment. */
export const MARK_MAX = 200;

/**
 * Bulk work: the most ICCIDs or SIMs in one list (the API, a pasted list, a file, the JS run). A
 * list costs a few statements whatever its length (server/sims/bulk.ts): 10,000 take about a second on PostgreSQL.
 */
export const BULK_MAX = 10_000;
/**
 * "All that match" on /sims (a bulk deactivation of a search): the search's first this many. It stays at the
 * search's exact count (SEARCH_COUNT_CAP, docs/decisions/019), so the page never selects more than it can count.
 */
export const BULK_SELECT_MAX = 1000;
/**
 * A file of a bulk list (server/sims/bulk-file.ts), here so the page can check it before the upload too: 10,000
 * CSV rows of an ICCID and about 390 characters of mark and comment each; an XLSX of the same rows is far smaller.
 */
export const BULK_FILE_MAX_BYTES = 4 * 1024 * 1024;
/**
 * How many rows a page lists one by one (/add/bulk's preview and result): a longer list shows its counts and the
 * rows with a problem first, up to this many, and the whole list is in "Ladda ner resultat".
 */
export const BULK_ROWS_SHOWN = 1000;
export const BULK_FILE_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const BULK_ACTIVATE_OUTCOMES = [
  'activated',
  'ready',
  'invalid',
  'duplicateInList',
  'alreadyActive',
  'activeElsewhere',
] as const;
export type BulkActivateOutcome = (typeof BULK_ACTIVATE_OUTCOMES)[number];

export const BULK_DEACTIVATE_OUTCOMES = ['deactivated', 'notFound', 'legacy', 'alreadyInactive'] as const;
export type BulkDeactivateOutcome = (typeof BULK_DEACTIVATE_OUTCOMES)[number];
