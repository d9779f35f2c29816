// The rows of an XLSX's first worksheet, read in a worker thread (./xlsx-read.ts runs a couple of them,
// each with a heap limit, and ends one that overruns its time): whatever the XML holds (deep nesting, one huge shared
// string), the page's process keeps its memory and keeps answering. See docs/decisions/015-xlsx-bounded-unpack.md.
//
// The zip is never handed to exceljs as it came: its declared sizes may lie (a few hundred kB that exceljs would
// inflate to gigabytes). The entries the first worksheet needs are inflated here with a cap on the bytes actually
// produced, and exceljs gets a new zip of only those, stored (not compressed), so it inflates nothing itself.
//
// Node runs this file as it is (type stripping, Node >= 22.18) under tsx and in the tests: it is loaded by path,
// beside ./xlsx-read.ts, so it imports only ./zip.ts (likewise plain) and types, and uses only erasable TypeScript.
// The production build compiles it beside the server's bundle (build/node/xlsx-worker.js, scripts/build.js).
import { parentPort } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import type { Cell, RawRow } from './rows.ts';
import { storedZip, unpackEntry, zipDirectory } from './zip.ts';

export type XlsxRequest = {
  bytes: Uint8Array;
  /** The most bytes the entries read may inflate to, in all. */
  maxUnpacked: number;
  /** A workbook with more entries than this is refused unread (a real one has a few dozen). */
  maxEntries: number;
  /** How many non-blank rows to send back; the rest are only counted. */
  keptRows: number;
};
export type XlsxAnswer =
  { ok: true; rows: RawRow[]; total: number } | { ok: false; reason: 'unreadable' | 'unpacked' | 'entries' };

const NOT_READABLE = { ok: false, reason: 'unreadable' } as const;

const XML_ENTITIES: Partial<Record<string, string>> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

/** The attributes of one start tag, entities decoded. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name = '', doubleQuoted, singleQuoted] of tag.matchAll(/([^\s=<>/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    out[name] = (doubleQuoted ?? singleQuoted ?? '')
      .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
      .replace(/&(lt|gt|quot|apos|amp);/g, (whole: string, n: string) => XML_ENTITIES[n] ?? whole);
  return out;
}

// exceljs's own patterns (lib/xlsx/xlsx.js, load): an entry it reads as a worksheet, a worksheet's relations,
// and the parts a worksheet's relations point at, which exceljs looks up while reconciling the sheet (a sheet
// whose comments, drawing or table is missing makes it throw). Images and themes are never read.
const SHEET = /xl\/worksheets\/sheet(\d+)[.]xml/;
const SHEET_RELS = /xl\/worksheets\/_rels\/sheet(\d+)[.]xml.rels/;
const SHEET_PARTS = [
  /xl\/drawings\/([a-zA-Z0-9]+)[.]xml/,
  /xl\/(comments\d+)[.]xml/,
  /xl\/tables\/(table\d+)[.]xml/,
  /xl\/drawings\/_rels\/([a-zA-Z0-9]+)[.]xml[.]rels/,
  /xl\/drawings\/(vmlDrawing\d+)[.]vml/,
];
/** Read by exceljs as a theme or an image before the patterns above are tried: never needed for the rows. */
const SKIPPED = [/xl\/theme\/([a-zA-Z0-9]+)[.]xml/, /xl\/media\/([a-zA-Z0-9]+[.][a-zA-Z0-9]{3,4})$/];
const WORKBOOK_PARTS = [
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/sharedStrings.xml',
  'xl/styles.xml',
] as const;

/**
 * The worksheet exceljs would make the first: the first <sheet> of the workbook whose relation names an entry of
 * the zip that exceljs reads as a worksheet (the same lookup as exceljs's WorkbookXform.reconcile).
 */
function firstSheet(workbook: string, rels: string, names: Set<string>): string | undefined {
  const targets = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship\s[^>]*>/g)) {
    const a = attributes(m[0]);
    if (a.Id !== undefined && a.Target !== undefined) targets.set(a.Id, a.Target);
  }
  for (const m of workbook.matchAll(/<sheet\s[^>]*>/g)) {
    const target = targets.get(attributes(m[0])['r:id'] ?? '');
    if (target === undefined) continue;
    const name = `xl/${target.replace(/^(\s|\/xl\/)+/, '')}`;
    if (names.has(name) && SHEET.test(name)) return name;
  }
  return undefined;
}

/** The entries the first worksheet needs, inflated within the budget; stored again as a zip for exceljs. */
function worksheetZip(req: XlsxRequest): Uint8Array<ArrayBuffer> | XlsxAnswer {
  const entries = zipDirectory(req.bytes, req.maxEntries);
  if (entries === 'entries') return { ok: false, reason: 'entries' };
  if (entries === null) return NOT_READABLE;
  let budget = req.maxUnpacked;
  const files = new Map<string, Uint8Array>();
  const read = (name: string): Uint8Array | XlsxAnswer | undefined => {
    const e = entries.get(name);
    if (!e || files.has(name)) return files.get(name);
    const data = unpackEntry(req.bytes, e, budget);
    if (data === 'unpacked') return { ok: false, reason: 'unpacked' };
    if (data === null) return NOT_READABLE;
    budget -= data.length;
    files.set(name, data);
    return data;
  };
  const text = (data: Uint8Array | XlsxAnswer | undefined) =>
    data instanceof Uint8Array ? new TextDecoder().decode(data) : '';

  for (const name of WORKBOOK_PARTS) {
    const data = read(name);
    if (data !== undefined && !(data instanceof Uint8Array)) return data;
  }
  const names = new Set(entries.keys());
  const sheet = firstSheet(text(files.get(WORKBOOK_PARTS[0])), text(files.get(WORKBOOK_PARTS[1])), names);
  if (sheet !== undefined) {
    const sheetNo = SHEET.exec(sheet)?.[1];
    if (sheetNo === undefined) throw new Error(`firstSheet gave ${sheet}, not a worksheet`);
    const wanted = [
      sheet,
      ...[...names].filter((n) => SHEET_RELS.exec(n)?.[1] === sheetNo && !SHEET.test(n)),
      ...[...names].filter(
        (n) =>
          !SHEET.test(n) &&
          !SHEET_RELS.test(n) &&
          !SKIPPED.some((p) => p.test(n)) &&
          SHEET_PARTS.some((p) => p.test(n)),
      ),
    ];
    for (const name of wanted) {
      const data = read(name);
      if (data !== undefined && !(data instanceof Uint8Array)) return data;
    }
  }
  return storedZip([...files]);
}

/** What exceljs made of a cell, as text or as the number it holds. */
function cellOf(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return { number: value };
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('formula' in value || 'sharedFormula' in value) return value.result === undefined ? '' : cellOf(value.result);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return String(value.error);
  }
  return '';
}

export async function readXlsx(req: XlsxRequest): Promise<XlsxAnswer> {
  const zip = worksheetZip(req);
  if (!(zip instanceof Uint8Array)) return zip;
  const workbook = new ExcelJS.Workbook();
  try {
    // An ArrayBuffer, as exceljs' typings ask (its Buffer type is an ArrayBuffer) and JSZip reads.
    await workbook.xlsx.load(zip.buffer);
  } catch {
    return NOT_READABLE;
  }
  const sheet = workbook.worksheets[0];
  const rows: RawRow[] = [];
  let total = 0;
  sheet?.eachRow({ includeEmpty: false }, (row, line) => {
    // 1-based: values[0] is empty. Read from a file they are an array (the object form is for writing by key).
    const values = Array.isArray(row.values) ? row.values : [];
    const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => cellOf(values[i + 1]));
    if (cells.some((c) => typeof c !== 'string' || c.trim() !== '') && ++total <= req.keptRows)
      rows.push({ line, cells });
  });
  return { ok: true, rows, total };
}

// One request at a time (the page's side never sends a second before the answer to the first).
if (parentPort) {
  const port = parentPort;
  port.on('message', (req: XlsxRequest) => {
    readXlsx(req).then(
      (answer) => port.postMessage(answer),
      () => port.postMessage(NOT_READABLE),
    );
  });
}
