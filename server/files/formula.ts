// Formula injection: a text from a user that a spreadsheet would run as a formula if it were typed in. Every CSV
// and XLSX the portal writes neutralises such a text with this one rule (docs/decisions/008-csv-iccid-behind-a-tab.md).
import type ExcelJS from 'exceljs';

// The characters OWASP's CSV injection names, also behind leading whitespace (spaces, tabs, line breaks, no-break
// spaces: spreadsheets trim them on import and then read the formula), and a leading tab or carriage return.
const FORMULA_START = /^(?:\s*[=+\-@]|[\t\r])/;

/** A text cell's value: plain text, or one run of rich text (what safeText makes of a formula-like text). */
export type TextCell = string | ExcelJS.CellRichTextValue;

/** A text a spreadsheet would take for a formula if it were typed in (spaces before it too). */
export const looksLikeFormula = (value: string) => FORMULA_START.test(value);

/**
 * A user-entered text as a cell value Excel shows as text. Cells written from plain strings are never
 * formulas, but a text that looks like one ("=HYPERLINK(...)", "+46...", "@SUM") is written as an
 * inline rich-text string in a text-formatted ("@") column, so it stays text even when the cell is
 * edited or the sheet is saved again.
 */
export function safeText(value: string): TextCell {
  return looksLikeFormula(value) ? { richText: [{ text: value }] } : value;
}
