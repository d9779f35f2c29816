// GET /api/sse: a server-sent event stream for one logged-in tab. Toasts for its user arrive as
// `event: toast`; a comment heartbeat every 25 s keeps proxies from closing it; it ends when the
// session ends (logout, expiry), when the tab goes away, or when the server shuts down.
import type { SessionInfo } from '../auth/sessions.js';
import type { Hub } from './hub.js';

export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 5_000;
/** Open streams per user; an extra one closes that user's oldest (a tab long gone, or someone hoarding connections). */
export const MAX_STREAMS_PER_USER = 10;

export type Streams = {
  open: (session: SessionInfo & { expiresAt?: Date }, signal: AbortSignal) => Response;
  closeAll: () => void;
  count: () => number;
};

export function createStreams(hub: Hub, opts: { heartbeatMs?: number } = {}): Streams {
  const active = new Set<() => void>();
  // Per user, the close functions of the open streams, oldest first.
  const byUser = new Map<number, Array<() => void>>();
  return {
    count: () => active.size,
    closeAll() {
      for (const close of [...active]) close();
    },
    open(session, signal) {
      const encoder = new TextEncoder();
      let close = () => {};
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          let ended = false;
          const send = (text: string) => {
            if (!ended) controller.enqueue(encoder.encode(text));
          };
          const heartbeat = setInterval(() => send(': ping\n\n'), opts.heartbeatMs ?? HEARTBEAT_MS);
          const expiry = session.expiresAt
            ? setTimeout(() => close(), Math.max(0, Math.min(session.expiresAt.getTime() - Date.now(), 2 ** 31 - 1)))
            : null;
          const unsubscribe = hub.subscribe((event) => {
            if (event.kind === 'toast' && event.userId === session.userId) {
              send(
                `id: ${event.toast.id}\nevent: toast\ndata: ${JSON.stringify({ id: event.toast.id, type: event.toast.type, title: event.toast.title, message: event.toast.message })}\n\n`,
              );
            } else if (event.kind === 'sessionEnded' && event.sessionId === session.id) {
              close();
            }
          });
          close = () => {
            if (ended) return;
            ended = true;
            clearInterval(heartbeat);
            if (expiry) clearTimeout(expiry);
            unsubscribe();
            active.delete(close);
            const mine = byUser.get(session.userId);
            const at = mine?.indexOf(close) ?? -1;
            if (at >= 0) mine!.splice(at, 1);
            if (mine?.length === 0) byUser.delete(session.userId);
            try {
              controller.close();
            } catch {
              // already closed by the client going away
            }
          };
          active.add(close);
          const mine = byUser.get(session.userId) ?? [];
          byUser.set(session.userId, mine);
          mine.push(close);
          while (mine.length > MAX_STREAMS_PER_USER) mine[0]!();
          signal.addEventListener('abort', () => close(), { once: true });
          send(`retry: ${RETRY_MS}\n: connected\n\n`);
        },
        cancel() {
          close();
        },
      });
      return new Response(stream, {
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
