// GET /api/sse: a server-sent event stream for one logged-in tab. Toasts for its user arrive as
// `event: toast`; a comment heartbeat every 25 s keeps proxies from closing it; it ends when the
// session ends (logout, expiry), when the tab goes away, or when the server shuts down.
// Fan-out: the streams subscribe to the hub once, together, and find a toast's streams by user id (and a
// session's by session id) in a map. A toast is serialised and encoded once, into one Buffer, whatever the
// number of streams it goes to; each stream gets one write per batch of events (hub.ts), straight onto its
// Node response (no web stream, no per-stream promise or timer). One shared timer sends every stream's
// heartbeat and closes the streams whose session has expired.
import type { SessionInfo } from '#server/auth/sessions.ts';
import type { Hub, HubEvent, Toast } from '#server/events/hub.ts';

export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 5_000;
/** Open streams per user; an extra one closes that user's oldest (a tab long gone, or someone hoarding connections). */
export const MAX_STREAMS_PER_USER = 10;
/** A client that has not read this much of its stream is stuck: its stream is closed (EventSource reconnects). */
export const MAX_UNSENT_BYTES = 1024 * 1024;
/** How often the shared timer looks for expired sessions (and whether a heartbeat is due). */
const SWEEP_MS = 1000;

/** The response headers of an event stream (server/http/app.ts sets them before opening the stream). */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** Where a stream's bytes go: the Node response of GET /api/sse, its headers already sent. */
export type StreamSink = {
  write: (chunk: Buffer) => boolean;
  end: () => void;
  /** Bytes written but not yet taken by the socket. */
  readonly writableLength: number;
  /** True once the client has gone (its 'close' has been emitted). */
  readonly destroyed: boolean;
  once: (event: 'close', listener: () => void) => unknown;
};

export type Streams = {
  /** Starts the event stream of a session on its response; the stream ends when the response closes. */
  open: (session: SessionInfo & { expiresAt?: Date }, sink: StreamSink) => void;
  closeAll: () => void;
  count: () => number;
};

type Stream = {
  userId: number;
  /** The company the session acts for: its pages are told of its new usage. */
  companyId: number;
  sessionId: string;
  /** Milliseconds since the epoch; Infinity without an expiry. */
  expiresAt: number;
  sink: StreamSink;
  ended: boolean;
};

const HELLO = Buffer.from(`retry: ${RETRY_MS}\n: connected\n\n`);
const PING = Buffer.from(': ping\n\n');
/** New usage of the stream's company: the page fetches what it shows again (app/utils/live-usage.ts). */
const USAGE = Buffer.from('event: usage\ndata: {}\n\n');

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
  if (list && at >= 0) list.splice(at, 1);
  if (list?.length === 0) map.delete(key);
}

/** The parts as one Buffer (no copy for one part). */
const joined = (parts: Buffer[]) => (parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts));

export function createStreams(hub: Hub, opts: { heartbeatMs?: number } = {}): Streams {
  const heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
  const active = new Set<Stream>();
  // Per user, the open streams, oldest first; per session, its streams.
  const byUser = new Map<number, Stream[]>();
  const bySession = new Map<string, Stream[]>();
  const byCompany = new Map<number, Stream[]>();

  /** Writes to a stream; false (nothing written) when its client is stuck: the caller closes it. */
  const write = (s: Stream, chunk: Buffer) => {
    if (s.ended) return true;
    if (s.sink.writableLength > MAX_UNSENT_BYTES) return false;
    s.sink.write(chunk);
    return true;
  };
  const send = (s: Stream, chunk: Buffer) => {
    if (!write(s, chunk)) close(s);
  };
  /** The same chunk to each of a user's streams (closing one changes the list: after the loop). */
  const sendAll = (streams: readonly Stream[], chunk: Buffer) => {
    let stuck: Stream[] | null = null;
    for (const s of streams) if (!write(s, chunk)) (stuck ??= []).push(s);
    if (stuck) for (const s of stuck) close(s);
  };

  const close = (s: Stream) => {
    if (s.ended) return;
    s.ended = true;
    active.delete(s);
    removeFrom(byUser, s.userId, s);
    removeFrom(bySession, s.sessionId, s);
    removeFrom(byCompany, s.companyId, s);
    if (!active.size) stopTimer();
    s.sink.end();
  };

  // One batch of events (one NOTIFY): per user, the messages of their toasts, in order, encoded once and
  // written to each of the user's streams in one write.
  const deliver = (events: HubEvent[]) => {
    const pending = new Map<number, Buffer[]>();
    // A company told of new usage once per batch, however many of its batches were stored meanwhile.
    const usage = new Set<number>();
    const flushUser = (userId: number, streams: readonly Stream[]) => {
      const parts = pending.get(userId);
      if (!parts) return;
      pending.delete(userId);
      sendAll(streams, joined(parts));
    };
    for (const event of events) {
      if (event.kind === 'toast') {
        if (!byUser.has(event.userId)) continue;
        const message = Buffer.from(toastMessage(event.toast));
        const parts = pending.get(event.userId);
        if (parts) parts.push(message);
        else pending.set(event.userId, [message]);
      } else if (event.kind === 'usage') {
        if (byCompany.has(event.companyId)) usage.add(event.companyId);
      } else if (event.kind === 'sessionEnded') {
        // The session's user gets this batch's toasts so far first, so toasts before the logout still arrive.
        for (const s of [...(bySession.get(event.sessionId) ?? [])]) {
          flushUser(s.userId, byUser.get(s.userId) ?? []);
          close(s);
        }
      }
    }
    for (const userId of [...pending.keys()]) flushUser(userId, byUser.get(userId) ?? []);
    for (const companyId of usage) sendAll([...(byCompany.get(companyId) ?? [])], USAGE);
  };
  hub.subscribeBatch(deliver);

  // The one timer of all streams: expired sessions' streams close; every heartbeatMs, a ping to each.
  let timer: NodeJS.Timeout | null = null;
  let lastPing = 0;
  const sweep = () => {
    const now = Date.now();
    for (const s of [...active]) if (s.expiresAt <= now) close(s);
    if (now - lastPing >= heartbeatMs) {
      lastPing = now;
      for (const s of active) send(s, PING);
    }
  };
  const startTimer = () => {
    if (timer) return;
    lastPing = Date.now();
    timer = setInterval(sweep, Math.min(SWEEP_MS, heartbeatMs)).unref();
  };
  const stopTimer = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };

  return {
    count: () => active.size,
    closeAll() {
      for (const s of [...active]) close(s);
    },
    open(session, sink) {
      if (sink.destroyed) return;
      const stream: Stream = {
        userId: session.userId,
        companyId: session.companyId,
        sessionId: session.id,
        expiresAt: session.expiresAt?.getTime() ?? Infinity,
        sink,
        ended: false,
      };
      sink.once('close', () => close(stream));
      active.add(stream);
      startTimer();
      addTo(bySession, stream.sessionId, stream);
      addTo(byCompany, stream.companyId, stream);
      const mine = addTo(byUser, stream.userId, stream);
      for (const old of mine.slice(0, Math.max(0, mine.length - MAX_STREAMS_PER_USER))) close(old);
      send(stream, HELLO);
    },
  };
}
