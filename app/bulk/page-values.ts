// What /add/bulk's plain forms carry from step to step (app/routes/add_.bulk.tsx): the list and choices, and a
// list from a file as JSON in a hidden field, checked again on each post (the route's rowsOf) as the
// procedure checks typed input; the file's name only labels it. Each row is packed as an array
// [iccid, mark, note, tags] (null: the list's own, or no tags of its own; left off at the end; the tags joined by
// line breaks, which no tag holds): 10,000 rows with key names and their quotes,
// escaped in the page, made its forms megabytes larger. No zod here: this module reaches the browser.
import type { CarriedFile } from '#app/components/bulk/BulkFileField.tsx';
import { BULK_MAX } from '#domain/sims/limits.ts';
import type { BulkActivateOutput, BulkRow } from '#domain/sims/schemas.ts';

// What a list field may echo back (the door caps /add/bulk's body): BULK_MAX + 1 ICCIDs with separators fit, so a
// list one too long is counted and refused in words rather than cut by the browser.
export const LIST_MAX = (BULK_MAX + 1) * 40;
export const FILE_NAME_MAX = 200;

export type Values = {
  iccids: string;
  dataLimit: string;
  callAndSms: boolean;
  roaming: boolean;
  invoiceLineMark: string;
  invoiceLineNote: string;
  /** The list's tags as typed (comma-separated). */
  tags: string;
  /** A list from a file: its rows as JSON ('' for a pasted list), and the file's name. */
  rows: string;
  fileName: string;
};

/**
 * What a preview or result page gets: the counts, the rows it lists (all of a short list; of a long one the rows
 * with a problem: shownRows), how many it does not list, and the result's every row for its download. A page of
 * 10,000 rows so carries its counts and problems, not 10,000 table rows.
 */
export type Shown = {
  counts: BulkActivateOutput['counts'];
  rows: Array<BulkActivateOutput['results'][number] & { n: number }>;
  hidden: number;
  pairs: string;
};

export type Packed = Array<Array<string | null>>;

export const packRows = (rows: BulkRow[]): string =>
  JSON.stringify(
    rows.map((r): Array<string | null> => {
      const packed = [r.iccid, r.invoiceLineMark ?? null, r.invoiceLineNote ?? null, r.tags?.join('\n') || null];
      while (packed.length > 1 && packed.at(-1) === null) packed.pop();
      return packed;
    }),
  );

export const unpackRows = (packed: Packed): BulkRow[] =>
  packed.map(([iccid, mark, note, tags]) => ({
    iccid: iccid ?? '',
    ...(mark != null ? { invoiceLineMark: mark } : {}),
    ...(note != null ? { invoiceLineNote: note } : {}),
    ...(tags ? { tags: tags.split('\n') } : {}),
  }));

/**
 * The rows of a file an answer carries, for the page: the action checked them (rowsOf) before it answered, so the
 * page reads them as they are, and the checks (zod) stay on the server.
 */
export function fileRowsOf(values: Values | undefined): BulkRow[] | null {
  if (!values?.rows) return null;
  try {
    const rows: unknown = JSON.parse(values.rows);
    return Array.isArray(rows) ? unpackRows(rows as Packed) : null;
  } catch {
    return null;
  }
}

export function carriedOf(values: Values | undefined): CarriedFile | null {
  const rows = fileRowsOf(values);
  return rows && values ? { rows: values.rows, fileName: values.fileName, count: rows.length } : null;
}
