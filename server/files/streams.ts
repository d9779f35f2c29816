// Writing a long file into a stream as it is made (the exports of up to 1,000,000 rows): waiting while the reader is
// behind (backpressure), and stopping when it went away (a cancelled download stops the database reads behind it).
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { sheetBacklog } from './exceljs-internals.ts';

export class ExportAborted extends Error {
  constructor() {
    super('the download was cancelled');
  }
}

/** Writes `text` to `out`, then waits while `out` is full; throws ExportAborted once its reader has gone away. */
export async function writeOrWait(out: Writable, text: string): Promise<void> {
  if (out.destroyed) throw new ExportAborted();
  if (!out.write(text)) await drained(out);
  if (out.destroyed) throw new ExportAborted();
}

/**
 * Uncompressed sheet XML allowed to wait for the compressor before more rows are written, and how many
 * rows are written between two looks at it. Small on purpose, like the batches of rows (BATCH_SIZE in
 * invoice-specification.ts): what is still in flight when V8's young-generation collection runs is moved
 * to the old generation, which V8 then lets grow before collecting it; with 4 MB and 6,000-row batches in
 * flight that growth followed the size of the file.
 */
const MAX_BACKLOG_BYTES = 64 * 1024;
export const XML_ROWS_BETWEEN_LOOKS = 200;

/**
 * Waits until the compressor has caught up with the rows written and the reader of `out` has taken
 * what was sent. exceljs' sheet stream pipes into the zip entry without honouring backpressure, so
 * without this wait the XML of every row would pile up in memory before a byte is compressed.
 */
export async function caughtUp(sheet: ExcelJS.Worksheet, out: Writable): Promise<void> {
  for (;;) {
    if (out.destroyed) throw new ExportAborted();
    if (out.writableNeedDrain) await drained(out);
    else if (sheetBacklog(sheet) > MAX_BACKLOG_BYTES) await new Promise((resolve) => setTimeout(resolve, 1));
    else return void (await new Promise((resolve) => setImmediate(resolve)));
  }
}

/** What waits for each writable's next 'drain' (or its close), woken by one listener per writable. */
const drainWaiters = new WeakMap<Writable, Array<() => void>>();

/**
 * Resolves at the writable's next 'drain', or when it closes (an error destroys it, which closes it: callers
 * check `destroyed`). One 'drain' listener per writable for its whole life, never one per wait: the compression
 * middleware hands a response's 'drain' listeners to its zlib stream but not their removal, so a listener per
 * wait (events.once) piled up there for as long as a long page or export streamed (MaxListenersExceededWarning,
 * and every drain called them all).
 */
export function drained(out: Writable): Promise<void> {
  if (out.destroyed || out.closed) return Promise.resolve();
  let waiters = drainWaiters.get(out);
  if (!waiters) {
    const list: Array<() => void> = [];
    const wake = () => {
      for (const resolve of list.splice(0)) resolve();
    };
    out.on('drain', wake);
    out.once('close', wake);
    drainWaiters.set(out, (waiters = list));
  }
  return new Promise((resolve) => waiters.push(resolve));
}

/**
 * The batches of `source`, each next one read while the one before is written: the database reads a batch while
 * Node formats and sends the one before, so an export takes about the longer of the two, not their sum (the list
 * export of 1,000,000 SIMs waited for each batch's three statements between writing two batches). One batch ahead,
 * never more: memory stays two batches. Stopped early (a download cancelled), it lets the read in flight end and
 * closes the source, so no statement is left running.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let pending = it.next();
  let done = false;
  try {
    for (;;) {
      const r = await pending;
      if (r.done) {
        done = true;
        return;
      }
      pending = it.next();
      // Its failure is thrown where it is awaited (the next turn of this loop), or dropped with the download.
      pending.catch(() => undefined);
      yield r.value;
    }
  } finally {
    if (!done) {
      await pending.catch(() => undefined);
      await it.return?.(undefined);
    }
  }
}
