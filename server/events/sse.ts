// GET /api/sse: a server-sent event stream for one logged-in tab. Toasts for its user arrive as
// `event: toast`; a comment heartbeat every 25 s keeps proxies from closing it; it ends when the
// session ends (logout, expiry), when the tab goes away, or when the server shuts down.
// Fan-out: the streams subscribe to the hub once, together, and find a toast's streams by user id (and a
// session's by session id) in a map; each stream gets one write per batch of events (hub.ts), whatever
// the number of toasts in it. One heartbeat timer serves every stream.
import type { SessionInfo } from '../auth/sessions.js';
import type { Hub, HubEvent, Toast } from './hub.js';

export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 5_000;
/** Open streams per user; an extra one closes that user's oldest (a tab long gone, or someone hoarding connections). */
export const MAX_STREAMS_PER_USER = 10;

export type Streams = {
  open: (session: SessionInfo & { expiresAt?: Date }, signal: AbortSignal) => Response;
  closeAll: () => void;
  count: () => number;
};

type Stream = {
  userId: number;
  sessionId: string;
  /** Text waiting for this batch's write. */
  pending: string;
  send: (text: string) => void;
  close: () => void;
};

const encoder = new TextEncoder();

/** The SSE message of a toast: the same text for every stream it goes to. */
export function toastMessage(toast: Toast): string {
  const data = JSON.stringify({ id: toast.id, type: toast.type, title: toast.title, message: toast.message });
  return `id: ${toast.id}\nevent: toast\ndata: ${data}\n\n`;
}

function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  list.push(value);
  return list;
}

function removeFrom<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  const at = list?.indexOf(value) ?? -1;
  if (at >= 0) list!.splice(at, 1);
  if (list?.length === 0) map.delete(key);
}

export function createStreams(hub: Hub, opts: { heartbeatMs?: number } = {}): Streams {
  const active = new Set<Stream>();
  // Per user, the open streams, oldest first; per session, its streams.
  const byUser = new Map<number, Stream[]>();
  const bySession = new Map<string, Stream[]>();

  const deliver = (events: HubEvent[]) => {
    const touched: Stream[] = [];
    for (const event of events) {
      if (event.kind === 'toast') {
        const streams = byUser.get(event.userId);
        if (!streams) continue;
        const text = toastMessage(event.toast);
        for (const s of streams) {
          if (!s.pending) touched.push(s);
          s.pending += text;
        }
      } else if (event.kind === 'sessionEnded') {
        // close() sends what this batch had for the stream first, so toasts before the logout still arrive.
        for (const s of [...(bySession.get(event.sessionId) ?? [])]) s.close();
      }
    }
    for (const s of touched) {
      const text = s.pending;
      s.pending = '';
      if (text) s.send(text);
    }
  };
  hub.subscribeBatch(deliver);

  let heartbeat: NodeJS.Timeout | null = null;
  const ping = () => {
    for (const s of active) s.send(': ping\n\n');
  };

  return {
    count: () => active.size,
    closeAll() {
      for (const s of [...active]) s.close();
    },
    open(session, signal) {
      let stream: Stream;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          let ended = false;
          const expiry = session.expiresAt
            ? setTimeout(
                () => stream.close(),
                Math.max(0, Math.min(session.expiresAt.getTime() - Date.now(), 2 ** 31 - 1)),
              )
            : null;
          stream = {
            userId: session.userId,
            sessionId: session.id,
            pending: '',
            send(text) {
              if (!ended) controller.enqueue(encoder.encode(text));
            },
            close() {
              if (ended) return;
              if (stream.pending) {
                stream.send(stream.pending);
                stream.pending = '';
              }
              ended = true;
              if (expiry) clearTimeout(expiry);
              active.delete(stream);
              removeFrom(byUser, stream.userId, stream);
              removeFrom(bySession, stream.sessionId, stream);
              if (!active.size && heartbeat) {
                clearInterval(heartbeat);
                heartbeat = null;
              }
              try {
                controller.close();
              } catch {
                // already closed by the client going away
              }
            },
          };
          active.add(stream);
          heartbeat ??= setInterval(ping, opts.heartbeatMs ?? HEARTBEAT_MS).unref();
          addTo(bySession, stream.sessionId, stream);
          const mine = addTo(byUser, stream.userId, stream);
          while (mine.length > MAX_STREAMS_PER_USER) mine[0]!.close();
          signal.addEventListener('abort', () => stream.close(), { once: true });
          stream.send(`retry: ${RETRY_MS}\n: connected\n\n`);
        },
        cancel() {
          stream.close();
        },
      });
      return new Response(body, {
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store, no-transform',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        },
      });
    },
  };
}
