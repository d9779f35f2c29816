// The rows a spreadsheet file was read into (csv-read.ts, xlsx-worker.ts), before a reader applies its own rules.
// Types only: the XLSX worker thread imports them too, and Node strips them.

/** A cell as it came: its text, or the number a spreadsheet made of it. */
export type Cell = string | { number: number };
/** A non-blank row and its line in the file (a CSV record's first line; a worksheet's row number). */
export type RawRow = { line: number; cells: Cell[] };
/** The first rows of a file (as many as the reader asked for) and how many non-blank rows it has in all. */
export type RawRows = { rows: RawRow[]; total: number };
