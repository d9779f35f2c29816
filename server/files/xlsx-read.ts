// Reading an uploaded XLSX's first worksheet into rows, bounded (docs/decisions/015-xlsx-bounded-unpack.md): in a
// worker thread (./xlsx-worker.ts), only the parts the first worksheet needs, inflated to at most XLSX_MAX_UNPACKED
// bytes actually produced (the sizes its zip declares are checked first, but never trusted), within a heap and a
// time limit, and at most PARSES_AT_ONCE at once per process.
import { Worker } from 'node:worker_threads';
import type { RawRows } from './rows.ts';
import type { XlsxAnswer, XlsxRequest } from './xlsx-worker.ts';
import { declaredUnpackedSize } from './zip.ts';

export const XLSX_MAX_UNPACKED = 10 * 1024 * 1024;
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

/** Why an XLSX has no rows to read: not a workbook, too big unpacked, too heavy to parse, or too many at once. */
export type XlsxRefusal = 'unreadable' | 'unpacked' | 'heavy' | 'busy';

/** The first `keptRows` non-blank rows of the first worksheet (all counted), or why there are none to read. */
export async function readXlsxRows(bytes: Uint8Array, keptRows: number): Promise<RawRows | XlsxRefusal> {
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
      keptRows,
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

/**
 * The worker's file, beside the module that runs it: ./xlsx-worker.ts in the source tree (tsx, the tests; Node
 * strips its types), xlsx-worker.js beside the server's bundle (build/node, built there by scripts/build.js).
 */
const WORKER_FILE = new URL(import.meta.url.endsWith('.ts') ? './xlsx-worker.ts' : './xlsx-worker.js', import.meta.url);

/** Threads that finished a parse, kept a while: starting one and loading exceljs costs a few hundred ms. */
const idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  const worker = new Worker(WORKER_FILE, {
    resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: PARSE_YOUNG_MB },
  });
  worker.unref(); // an idle parser never keeps the process from ending
  // A thread may still report running out of heap after its parse was given up (its time ran out first): an
  // 'error' with no listener would end the whole process. inWorker() listens for the parse it waits on.
  worker.on('error', () => {});
  worker.on('exit', () => {
    const at = idle.findIndex((e) => e.worker === worker);
    const gone = at >= 0 ? idle.splice(at, 1)[0] : undefined;
    if (gone) clearTimeout(gone.timer);
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
