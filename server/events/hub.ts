// Events from services to browser tabs. A service publishes; the hub sends it through PostgreSQL
// NOTIFY (PGlite: its in-process listen), every server instance LISTENs and hands it to the open
// event streams of the users it concerns. So several instances behind a load balancer all deliver it.
// Publishing is batched: the events published in one turn of the event loop (and while the previous
// batch is still being sent) go out together, as few NOTIFYs as PostgreSQL's payload limit allows, in one
// statement, in the order they were published. 10,000 toasts a second are a few hundred NOTIFYs, not 10,000.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '#server/log.ts';
import type { Orm } from '#server/db/orm.ts';

export const CHANNEL = 'sim_portal_events';
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay well below.
export const MAX_PAYLOAD = 7000;
/** Events (as JSON characters) sent in one statement at most: about 150 NOTIFYs. */
export const MAX_BATCH_BYTES = 1024 * 1024;

export type Toast = { id: string; type: 'error' | 'info'; title: string; message: string };
export type HubEvent =
  | { kind: 'toast'; userId: number; toast: Toast }
  | { kind: 'sessionEnded'; sessionId: string }
  /** New usage of a company's SIMs is stored (its pages fetch what they show again, server/usage/live.ts). */
  | { kind: 'usage'; companyId: number };

type Listener = (event: HubEvent) => void;
type BatchListener = (events: HubEvent[]) => void;

export type Hub = {
  /** Sends the event to every instance; resolves once its NOTIFY is done (rejects if it is too large). */
  publish: (event: HubEvent) => Promise<void>;
  /** Called once per event, in order. */
  subscribe: (listener: Listener) => () => void;
  /** Called once per NOTIFY with its events, in order: for fan-out to many streams (server/http/sse.ts). */
  subscribeBatch: (listener: BatchListener) => () => void;
  close: () => Promise<void>;
};

/**
 * Serialised events (JSON texts, in order) packed into NOTIFY payloads: JSON arrays, in order, each at most
 * `max` bytes. A text that alone would not fit is the caller's to refuse (publish does).
 */
export function packPayloads(texts: readonly string[], max = MAX_PAYLOAD): string[] {
  const payloads: string[] = [];
  let current = '';
  let size = 0;
  for (const text of texts) {
    const bytes = Buffer.byteLength(text);
    if (current && size + 1 + bytes + 1 > max) {
      payloads.push(current + ']');
      current = '';
    }
    if (current) {
      current += ',' + text;
      size += 1 + bytes;
    } else {
      current = '[' + text;
      size = 1 + bytes;
    }
  }
  if (current) payloads.push(current + ']');
  return payloads;
}

/** The events of one payload: an array (batched), or one event (what instances sent before batching). */
export function unpackPayload(payload: string): HubEvent[] {
  try {
    const parsed = JSON.parse(payload) as HubEvent | HubEvent[];
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

export function newToast(type: Toast['type'], title: string, message: string): Toast {
  return { id: randomUUID(), type, title: title.slice(0, 200), message: message.slice(0, 1000) };
}

type Pending = { text: string; resolve: () => void; reject: (err: unknown) => void };

export async function createHub(orm: Orm, opts: { databaseUrl?: string; log: Logger }): Promise<Hub> {
  const listeners = new Set<Listener>();
  const batchListeners = new Set<BatchListener>();
  const deliver = (payload: string) => {
    const events = unpackPayload(payload);
    if (!events.length) return;
    for (const l of batchListeners) {
      try {
        l(events);
      } catch (err) {
        opts.log.error({ err }, 'event listener failed');
      }
    }
    if (!listeners.size) return;
    for (const event of events)
      for (const l of listeners) {
        try {
          l(event);
        } catch (err) {
          opts.log.error({ err }, 'event listener failed');
        }
      }
  };

  let stop: () => Promise<void>;
  if (opts.databaseUrl) {
    // A dedicated connection for LISTEN, reconnected when it drops (database restart, network cut).
    let client: pg.Client | null = null;
    let closed = false;
    let retry: NodeJS.Timeout | null = null;
    const connect = async () => {
      if (closed) return;
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      c.on('notification', (msg) => msg.channel === CHANNEL && msg.payload && deliver(msg.payload));
      c.on('error', (err) => {
        opts.log.warn({ err: err.message }, 'event listener connection lost; reconnecting');
        c.end().catch(() => {});
        if (client === c) client = null;
        schedule();
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${CHANNEL}`);
        client = c;
      } catch (err) {
        opts.log.warn({ err: (err as Error).message }, 'event listener could not connect; retrying');
        c.end().catch(() => {});
        schedule();
      }
    };
    const schedule = () => {
      if (closed || retry) return;
      retry = setTimeout(() => {
        retry = null;
        void connect();
      }, 1000);
    };
    await connect();
    stop = async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    };
  } else {
    const native = (await orm.em.getConnection().getNativeClient()) as {
      listen: (ch: string, cb: (p: string) => void) => Promise<() => Promise<void>>;
    };
    const unlisten = await native.listen(CHANNEL, deliver);
    stop = async () => {
      await unlisten().catch(() => {});
    };
  }

  // pg.Pool on PostgreSQL, the PGlite instance otherwise: both take `query(text, params)` with $n parameters.
  const database = (await orm.em.getConnection().getNativeClient()) as {
    query: (sql: string, params: unknown[]) => Promise<unknown>;
  };

  // The batch being collected, and whether one is being sent: one at a time, so batches stay in order.
  let queue: Pending[] = [];
  let scheduled = false;
  let sending = false;
  const flush = async () => {
    scheduled = false;
    if (sending || !queue.length) return;
    sending = true;
    // At most MAX_BATCH_BYTES of events per statement; the rest follows at once in the next one.
    let take = 0;
    for (let bytes = 0; take < queue.length && (take === 0 || bytes < MAX_BATCH_BYTES); take++)
      bytes += queue[take]?.text.length ?? 0;
    const batch = queue.slice(0, take);
    queue = queue.slice(take);
    try {
      // One statement, one NOTIFY per payload, in array order (a transaction's notifications arrive in order).
      // Straight on the driver (pg's pool, or PGlite), the payloads as a bound parameter: MikroORM's execute
      // would first write the megabyte of JSON into the SQL text, several times slower.
      await database.query(
        'select pg_notify($1, p) from json_array_elements_text($2::json) with ordinality as t(p, n) order by n',
        [CHANNEL, JSON.stringify(packPayloads(batch.map((p) => p.text)))],
      );
      for (const p of batch) p.resolve();
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      sending = false;
      if (queue.length) schedule();
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  return {
    publish(event) {
      const text = JSON.stringify(event);
      if (Buffer.byteLength(text) + 2 > MAX_PAYLOAD)
        return Promise.reject(new Error('event payload too large for NOTIFY'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ text, resolve, reject });
        if (!sending) schedule();
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeBatch(listener) {
      batchListeners.add(listener);
      return () => batchListeners.delete(listener);
    },
    close: () => stop(),
  };
}
