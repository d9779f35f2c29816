// Events from services to browser tabs. A service publishes; the hub sends it through PostgreSQL
// NOTIFY (PGlite: its in-process listen), every server instance LISTENs and hands it to the open
// event streams of the users it concerns. So several instances behind a load balancer all deliver it.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../log.js';
import type { Orm } from '../db/orm.js';

export const CHANNEL = 'sim_portal_events';
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay well below.
const MAX_PAYLOAD = 7000;

export type Toast = { id: string; type: 'error' | 'info'; title: string; message: string };
export type HubEvent = { kind: 'toast'; userId: number; toast: Toast } | { kind: 'sessionEnded'; sessionId: string };

type Listener = (event: HubEvent) => void;

export type Hub = {
  publish: (event: HubEvent) => Promise<void>;
  subscribe: (listener: Listener) => () => void;
  close: () => Promise<void>;
};

export function newToast(type: Toast['type'], title: string, message: string): Toast {
  return { id: randomUUID(), type, title: title.slice(0, 200), message: message.slice(0, 1000) };
}

export async function createHub(orm: Orm, opts: { databaseUrl?: string; log: Logger }): Promise<Hub> {
  const listeners = new Set<Listener>();
  const deliver = (payload: string) => {
    let event: HubEvent;
    try {
      event = JSON.parse(payload) as HubEvent;
    } catch {
      return;
    }
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

  return {
    async publish(event) {
      const payload = JSON.stringify(event);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error('event payload too large for NOTIFY');
      await orm.em.getConnection().execute('select pg_notify(?, ?)', [CHANNEL, payload]);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => stop(),
  };
}
