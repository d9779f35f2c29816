// usage:import: a file of usage records from the network's mediation (CSV with a header row of the contract's
// field names, plain or gzip, told by its first bytes) streamed into the store a batch at a time through the same
// ingestUsage as the REST door. Safe to run twice and to run again after a crash: a record seen before changes
// nothing. Exits non-zero only when the file itself cannot be read; refused records are counted and listed.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { loadConfig } from '#server/config.ts';
import { dbTargetFrom, migrate, type Orm } from '#server/db/orm.ts';
import { createHub } from '#server/events/hub.ts';
import { createLogger } from '#server/log.ts';
import type { Fired } from '#server/rules/evaluate.ts';
import { toastFired } from '#server/rules/watch.ts';
import { ingestUsage, validSource, type IngestCounts, type IngestOptions } from '#server/usage/ingest.ts';
import { CliError, withOrm } from './common.ts';

export const IMPORT_BATCH = 5_000;
/** Batches stored at once (docs/decisions/033: two keep both of a 2-core machine's cores busy). */
export const IMPORT_IN_FLIGHT = 2;
const REQUIRED = ['recordId', 'iccid', 'start', 'end', 'bytesUp', 'bytesDown'];
/** Refusals printed one by one; the rest are counted. */
const REFUSALS_SHOWN = 20;

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

type Row = { record: Record<string, string>; info: { lines: number } };

/** A batch refused by the pool's overload guard (decision 021: a new connection slow to open on a busy machine). */
const POOL_TRIES = 5;
const refusedByPool = (e: unknown) => e instanceof Error && /connection pool is saturated/.test(e.message);

/** Stores a batch, again when the pool refused it before it began: all or nothing, so a retry counts it once. */
async function storeBatch<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (!refusedByPool(e) || attempt >= POOL_TRIES) throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

export async function usageImport(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { source: { type: 'string' }, batch: { type: 'string' }, parallel: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const file = positionals[0] ?? '';
  if (!file || positionals.length > 1) throw new CliError('usage:import FILE [--source NAME]: give one file');
  const source = values.source ?? 'import';
  if (!validSource(source))
    throw new CliError(`--source "${source}": 1-100 letters, digits and . _ : - (the network key's name)`);
  const size = values.batch === undefined ? IMPORT_BATCH : Number(values.batch);
  if (!Number.isInteger(size) || size < 1 || size > 10_000) throw new CliError('--batch: a whole number 1-10000');
  const parallel = values.parallel === undefined ? IMPORT_IN_FLIGHT : Number(values.parallel);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 4) throw new CliError('--parallel: a whole number 1-4');
  let gzip: boolean;
  try {
    gzip = await isGzip(file);
  } catch (e) {
    throw new CliError(`${file} cannot be read: ${(e as Error).message}`);
  }
  const config = loadConfig();
  const { usage } = config;
  return withOrm(async (orm) => {
    await migrate(orm);
    // The companies' open pages and their rules' toasts, as the REST door tells them: across instances through
    // PostgreSQL's NOTIFY (an embedded database has no other process to tell).
    const target = dbTargetFrom(config);
    const log = createLogger(config.logLevel);
    const hub = await createHub(orm, { databaseUrl: target.kind === 'postgres' ? target.url : undefined, log });
    const told = {
      onTaken: async (companies: number[]) => {
        for (const companyId of companies)
          await hub.publish({ kind: 'usage', companyId }).catch((err: unknown) => log.warn({ err }, 'not published'));
      },
      onFired: (fired: Fired[]) =>
        toastFired(orm.em.fork(), hub, fired).catch((err: unknown) => log.warn({ err }, 'rule toasts not published')),
    };
    try {
      return await importFile(orm, told);
    } finally {
      await hub.close();
    }
  });

  async function importFile(orm: Orm, told: Pick<IngestOptions, 'onTaken' | 'onFired'>): Promise<string> {
    const total: IngestCounts = { taken: 0, duplicates: 0, unknownIccid: 0, refused: [] };
    const refused: Array<{ line: number; reason: string }> = [];
    let rows = 0;
    let batches = 0;
    // Up to `parallel` batches (IMPORT_IN_FLIGHT unless --parallel) are stored at once, each in its own transaction
    // on its own connection, while the next is read and checked: a crash may leave a later batch stored and an
    // earlier one not, which a run again mends (a record seen before changes nothing).
    const inFlight = new Set<Promise<void>>();
    const storeErrors: unknown[] = [];
    const store = async (batch: Row[]) => {
      const counts = await storeBatch(() =>
        ingestUsage(
          orm.em.fork(),
          source,
          batch.map((r) => r.record),
          { rawDays: usage.rawDays, ...told },
        ),
      );
      total.taken += counts.taken;
      total.duplicates += counts.duplicates;
      total.unknownIccid += counts.unknownIccid;
      total.refused.push(...counts.refused);
      refused.push(...counts.refused.map((r) => ({ line: batch[r.index]?.info.lines ?? 0, reason: r.reason })));
      batches++;
    };
    const flush = async (batch: Row[]) => {
      const p: Promise<void> = store(batch).then(
        () => void inFlight.delete(p),
        (error: unknown) => {
          inFlight.delete(p);
          storeErrors.push(error);
        },
      );
      inFlight.add(p);
      while (inFlight.size >= parallel) await Promise.race(inFlight);
      // A database error is no fault of the file's and goes on as it is.
      if (storeErrors.length) throw storeErrors[0];
    };
    const drain = async () => {
      await Promise.all(inFlight);
      if (storeErrors.length) throw storeErrors[0];
    };
    const summary = () => {
      // Batches may finish out of order: the refusals in the file's order.
      const refusedLines = refused.sort((a, b) => a.line - b.line).map((r) => `  line ${r.line || '?'}: ${r.reason}`);
      return [
        `usage:import ${file} (source ${source}${gzip ? ', gzip' : ''}): ${rows} records in ${batches} batches`,
        `taken ${total.taken}, duplicates ${total.duplicates}, unknown ICCID ${total.unknownIccid}, refused ${total.refused.length}`,
        ...refusedLines.slice(0, REFUSALS_SHOWN),
        ...(refusedLines.length > REFUSALS_SHOWN ? [`  ... and ${refusedLines.length - REFUSALS_SHOWN} more`] : []),
      ].join('\n');
    };
    const input: Readable = createReadStream(file);
    const parser = parse({ columns: true, bom: true, trim: true, skip_empty_lines: true, info: true });
    const stream = gzip ? input.pipe(createGunzip()) : input;
    stream.on('error', (e) => parser.destroy(e));
    stream.pipe(parser);
    let batch: Row[] = [];
    try {
      let header = true;
      for await (const row of parser as AsyncIterable<Row>) {
        if (header) {
          const missing = REQUIRED.filter((f) => !(f in row.record));
          if (missing.length) throw new Error(`the header row lacks ${missing.join(', ')}`);
          header = false;
        }
        rows++;
        batch.push(row);
        if (batch.length >= size) {
          await flush(batch);
          batch = [];
        }
      }
      if (batch.length) await flush(batch);
      await drain();
    } catch (e) {
      // The file (or its gzip, or its CSV) broke off: the batches before it are stored (those in flight are let
      // finish); a run again is safe. A database error is no fault of the file's and goes on as it is.
      await Promise.all(inFlight);
      if (storeErrors.length) throw storeErrors[0];
      throw new CliError(`${file} cannot be read: ${(e as Error).message}\n${summary()}`);
    } finally {
      input.destroy();
    }
    return summary();
  }
}
