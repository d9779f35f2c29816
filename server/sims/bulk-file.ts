// A list of SIMs to activate from a file (issue 15): CSV (comma, semicolon or tab, with or without a header)
// or XLSX (the first worksheet, read with exceljs). Pure: bytes in, rows or Swedish messages out; the page
// (app/routes/add_.bulk.tsx) hands the rows to sim.bulkActivate, which checks them again as typed input.
//
// Columns: a header row may name them `iccid`, `invoiceLineMark` or `fakturamärkning`, `invoiceLineNote` or
// `fakturakommentar` (any case; spaces, dashes and underscores ignored; other columns are ignored). A first row
// naming none of them is data: then the 1st column is the ICCID, the 2nd the mark and the 3rd the comment, in
// the template's order. An empty mark or comment cell means "the list's own" (the fields on the page).
//
// Never rounded: an ICCID that Excel stored as a number (8.9460123E+19) has already lost its last digits,
// so such a cell is refused naming its row, and so is the text Excel writes for it in a CSV ("8,946E+19").
//
// Bounded: at most BULK_FILE_MAX_BYTES, BULK_MAX data rows, the cells read capped (the ICCID at 100 characters, as
// the procedure's schema; a mark or comment at MARK_MAX). An XLSX is read in a worker thread (./xlsx-worker.ts):
// only the parts its first worksheet needs, inflated to at most XLSX_MAX_UNPACKED bytes actually produced (the
// sizes its zip declares are checked first, but never trusted), within a heap and a time limit, and at most
// PARSES_AT_ONCE at once per process (docs/decisions/015-xlsx-bounded-unpack.md).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { BULK_FILE_MAX_BYTES, BULK_MAX, MARK_MAX, type BulkRow } from '#domain/sims/schemas.ts';
import type { Cell, RawRow, XlsxAnswer, XlsxRequest } from './xlsx-worker.ts';

export { BULK_FILE_MAX_BYTES };

const XLSX_MAX_UNPACKED = 10 * 1024 * 1024;
/** A workbook has a few dozen parts; thousands of small ones are a way around the limit above, not a list. */
const XLSX_MAX_ENTRIES = 1000;
/** Parses at once per process: the machine has a couple of cores, and a parse may hold one for seconds. */
const PARSES_AT_ONCE = 2;
/** How long a parse may wait for its turn before the member is asked to try again (no queue for ever). */
const PARSE_WAIT_MS = 5_000;
/** A parse that has not finished by then is stopped: a 10,000-row workbook takes about a second. */
const PARSE_TIME_MS = 10_000;
/**
 * The worker's heap (old generation; the young one gets PARSE_YOUNG_MB): a 10,000-row sheet needs tens of MB, and
 * this leaves room for XLSX_MAX_UNPACKED of plain XML, while a million nested elements run out of it.
 */
const PARSE_HEAP_MB = 128;
const PARSE_YOUNG_MB = 16;
/** How long a parser thread that finished is kept for the next file. */
const WORKER_IDLE_MS = 60_000;
const ICCID_CELL_MAX = 100;
/** How many refused rows a message names before it only counts the rest. */
const NAMED_ROWS = 5;

export type BulkFileResult =
  { ok: true; rows: BulkRow[]; format: 'csv' | 'xlsx'; header: boolean } | { ok: false; errors: string[] };

type Column = 'iccid' | 'invoiceLineMark' | 'invoiceLineNote';
const HEADER_NAMES: Record<string, Column> = {
  iccid: 'iccid',
  invoicelinemark: 'invoiceLineMark',
  fakturamärkning: 'invoiceLineMark',
  invoicelinenote: 'invoiceLineNote',
  fakturakommentar: 'invoiceLineNote',
};
const headerName = (cell: string): Column | undefined =>
  HEADER_NAMES[
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '')
  ];

/** How a spreadsheet writes a number in scientific notation, as it may end up in a CSV or a text cell. */
const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;

/** The first rows of a file (enough to refuse one too long) and how many non-blank rows it has in all. */
type RawRows = { rows: RawRow[]; total: number };
const KEPT_ROWS = BULK_MAX + 1; // the header and BULK_MAX rows

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

export async function parseBulkFile(bytes: Uint8Array): Promise<BulkFileResult> {
  const f = tBulkFile;
  if (bytes.length === 0) return { ok: false, errors: [f.emptyFile] };
  if (bytes.length > BULK_FILE_MAX_BYTES)
    return { ok: false, errors: [f.fileTooLarge(Math.round(BULK_FILE_MAX_BYTES / 1024))] };
  if (isZip(bytes)) {
    const rows = await xlsxRows(bytes);
    if (typeof rows !== 'string') return toList(rows, 'xlsx');
    const message = {
      unreadable: f.notAFile,
      unpacked: f.unpackedTooLarge(XLSX_MAX_UNPACKED / 1024 / 1024),
      heavy: f.tooHeavy,
      busy: f.busy,
    }[rows];
    return { ok: false, errors: [message] };
  }
  const text = csvText(bytes);
  if (text === null) return { ok: false, errors: [f.notAFile] };
  return toList(csvRows(text), 'csv');
}

/** The file as text: UTF-8 (a BOM dropped) or, failing that, Windows-1252 (what Swedish Excel saves as "CSV"). */
function csvText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  // Control characters other than tab and line breaks: a binary file, not text.
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) return null;
  return text;
}

/** The separator of the first line that has one: semicolon, comma or tab, whichever occurs most outside quotes. */
function separatorOf(text: string): string {
  const line = text.split(/\r\n|\n|\r/).find((l) => l.trim() !== '') ?? '';
  const outside = line.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((s) => [s, outside.split(s).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ';';
}

/** RFC 4180 fields: quoted fields may hold separators, doubled quotes and line breaks. Blank lines are skipped. */
function csvRows(text: string): RawRows {
  const sep = separatorOf(text);
  const rows: RawRow[] = [];
  let total = 0;
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    cells.push(field);
    if (cells.some((c) => c.trim() !== '') && ++total <= KEPT_ROWS) rows.push({ line: rowLine, cells });
    cells = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (ch === sep) {
      cells.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += ch;
  }
  if (field !== '' || cells.length > 0) endRow();
  return { rows, total };
}

/** The sizes the zip's central directory declares for its entries, summed; null when there is none. */
function declaredUnpackedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: within the last 64 kB + 22 bytes.
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (view.getUint32(i, true) !== 0x06054b50) continue;
    const entries = view.getUint16(i + 10, true);
    let at = view.getUint32(i + 16, true);
    let total = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
      total += view.getUint32(at + 24, true);
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return total;
  }
  return null;
}

/** The rows of the first worksheet, or why there are none to read. */
async function xlsxRows(bytes: Uint8Array): Promise<RawRows | 'unreadable' | 'unpacked' | 'heavy' | 'busy'> {
  // The declared sizes: a cheap refusal of an honest zip that is too big, before any thread is started.
  const declared = declaredUnpackedSize(bytes);
  if (declared === null) return 'unreadable';
  if (declared > XLSX_MAX_UNPACKED) return 'unpacked';
  if (!(await parses.enter(PARSE_WAIT_MS))) return 'busy';
  try {
    const answer = await inWorker({
      bytes,
      maxUnpacked: XLSX_MAX_UNPACKED,
      maxEntries: XLSX_MAX_ENTRIES,
      keptRows: KEPT_ROWS,
    });
    if (answer === 'heavy') return 'heavy';
    if (answer.ok) return { rows: answer.rows, total: answer.total };
    return answer.reason === 'unpacked' || answer.reason === 'entries' ? 'unpacked' : 'unreadable';
  } finally {
    parses.leave();
  }
}

/** At most `max` holders at once; a caller waits its turn for at most the time it gives. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly max: number) {}

  /** Whether a turn came within `ms`; a caller that got one must leave(). */
  enter(ms: number): Promise<boolean> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const turn = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        resolve(false);
      }, ms);
      this.waiting.push(turn);
    });
  }

  leave() {
    const next = this.waiting.shift();
    // The turn passes straight on: `active` stays as it is.
    if (next) next();
    else this.active--;
  }
}

const parses = new Gate(PARSES_AT_ONCE);

/** The worker's file: beside this one in the source tree, found from the built pages (build/server) too. */
function workerFile(): string {
  for (const from of [import.meta.dirname, process.cwd()]) {
    for (let dir = from; ; dir = path.dirname(dir)) {
      for (const candidate of [path.join(dir, 'xlsx-worker.ts'), path.join(dir, 'server/sims/xlsx-worker.ts')])
        if (existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error('server/sims/xlsx-worker.ts was not found');
}
let workerPath: string | undefined;

/** Threads that finished a parse, kept a while: starting one and loading exceljs costs a few hundred ms. */
const idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  workerPath ??= workerFile();
  const worker = new Worker(workerPath, {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: PARSE_YOUNG_MB },
  });
  worker.unref(); // an idle parser never keeps the process from ending
  // A thread may still report running out of heap after its parse was given up (its time ran out first): an
  // 'error' with no listener would end the whole process. inWorker() listens for the parse it waits on.
  worker.on('error', () => {});
  worker.on('exit', () => {
    const at = idle.findIndex((e) => e.worker === worker);
    if (at >= 0) clearTimeout(idle.splice(at, 1)[0]!.timer);
  });
  return worker;
}

function keepWorker(worker: Worker) {
  const entry = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      void worker.terminate();
    }, WORKER_IDLE_MS).unref(),
  };
  idle.push(entry);
}

/** The worker's answer; 'heavy' when it ran out of its heap or its time (then the thread is ended). */
async function inWorker(req: XlsxRequest): Promise<XlsxAnswer | 'heavy'> {
  const worker = takeWorker();
  let timer: NodeJS.Timeout | undefined;
  let onMessage: (a: XlsxAnswer) => void = () => {};
  let onError: (err: Error & { code?: string }) => void = () => {};
  let onExit: () => void = () => {};
  const answer = await new Promise<XlsxAnswer | 'heavy' | Error>((resolve) => {
    timer = setTimeout(() => resolve('heavy'), PARSE_TIME_MS);
    onMessage = resolve;
    // Out of its heap is the file's doing; anything else is a fault of ours, for the logs.
    onError = (err) => resolve(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'heavy' : err);
    onExit = () => resolve('heavy');
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(req);
  }).finally(() => {
    clearTimeout(timer);
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
  });
  if (answer === 'heavy' || answer instanceof Error) {
    // The turn is given back only once the thread is gone, so PARSES_AT_ONCE bounds the threads alive.
    await worker.terminate();
    if (answer instanceof Error) throw answer;
    return answer;
  }
  keepWorker(worker);
  return answer;
}

const cellText = (cell: Cell | undefined): string =>
  cell === undefined ? '' : typeof cell === 'string' ? cell : String(cell.number);

/** "rad 2, 5 och 9" or "rad 2, 5, 9, 11, 12 och 3 till". */
function rowList(lines: number[]): string {
  const named = lines.slice(0, NAMED_ROWS);
  const rest = lines.length - named.length;
  if (rest > 0) return `${named.join(', ')} ${tBulkFile.andMore(rest)}`;
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} och ${named.at(-1)}` : String(named[0]);
}

function toList({ rows: raw, total }: RawRows, format: 'csv' | 'xlsx'): BulkFileResult {
  const f = tBulkFile;
  const first = raw[0];
  if (!first) return { ok: false, errors: [f.noRows] };
  const named = first.cells.map((c) => headerName(cellText(c)));
  const header = named.some((n) => n !== undefined);
  const column = (name: Column, fallback: number) => (header ? named.indexOf(name) : fallback);
  const at = {
    iccid: column('iccid', 0),
    invoiceLineMark: column('invoiceLineMark', 1),
    invoiceLineNote: column('invoiceLineNote', 2),
  };
  if (at.iccid < 0) return { ok: false, errors: [f.noIccidColumn] };
  const count = header ? total - 1 : total;
  if (count === 0) return { ok: false, errors: [f.noRows] };
  if (count > BULK_MAX) return { ok: false, errors: [f.tooManyRows(count, BULK_MAX)] };
  const data = header ? raw.slice(1) : raw;

  const numeric: number[] = [];
  const tooLong: string[] = [];
  const rows: BulkRow[] = [];
  for (const r of data) {
    const iccidCell = r.cells[at.iccid];
    const iccidText = cellText(iccidCell).trim();
    if ((typeof iccidCell === 'object' && !Number.isSafeInteger(iccidCell.number)) || SCIENTIFIC.test(iccidText))
      numeric.push(r.line);
    if (iccidText.length > ICCID_CELL_MAX) tooLong.push(f.iccidTooLong(r.line, ICCID_CELL_MAX));
    const row: BulkRow = { iccid: iccidText.slice(0, ICCID_CELL_MAX) };
    for (const key of ['invoiceLineMark', 'invoiceLineNote'] as const) {
      if (at[key] < 0) continue;
      const value = cellText(r.cells[at[key]]).trim();
      if (value.length > MARK_MAX) tooLong.push(f.rowTooLong(r.line, key, MARK_MAX));
      else if (value !== '') row[key] = value;
    }
    rows.push(row);
  }
  const errors: string[] = [];
  if (numeric.length) errors.push(f.scientific(rowList(numeric)));
  errors.push(...tooLong.slice(0, NAMED_ROWS));
  if (tooLong.length > NAMED_ROWS) errors.push(f.moreProblems(tooLong.length - NAMED_ROWS));
  return errors.length ? { ok: false, errors } : { ok: true, rows, format, header };
}
