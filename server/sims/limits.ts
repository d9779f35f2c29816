// The SIM operations' bounds and outcome names, apart from their zod schemas (schemas.ts) and importing
// nothing: pages and components import them from here, so no zod reaches a route's browser JS.

/** The longest invoice line mark or comment. */
export const MARK_MAX = 200;

/** Bulk work (issue 15): the most ICCIDs or SIMs in one list. */
export const BULK_MAX = 1000;
/** A file of a bulk list (server/sims/bulk-file.ts), here so the page can check it before the upload too. */
export const BULK_FILE_MAX_BYTES = 1024 * 1024;
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
