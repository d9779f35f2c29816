// The client side of bench/sse.ts, run in worker threads so that reading thousands of event streams
// shares the machine's cores with the publisher (the main thread) rather than queueing behind it.
// A worker opens its share of the streams (each its own session cookie and socket), records every
// toast each stream receives (its id, in order) and the delivery latency: the toast's message ends with
// the wall-clock time it was published (performance.timeOrigin + performance.now(), the same clock in every
// thread of the machine). Only node: modules here: the worker loads without the project's imports.
import { request, type ClientRequest } from 'node:http';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

export type ClientsInput = { url: string; streams: Array<{ userId: number; cookie: string }>; openBatch: number };
export type FinishRequest = { toasts: number; timeoutMs: number };
/** From a worker: 'open' once all its streams are connected (or failed), 'result' when asked to finish. */
export type ClientsMessage =
  | { type: 'open'; ms: number; error?: string }
  | {
      type: 'result';
      streams: Array<{ userId: number; received: string[]; closed: boolean }>;
      latencies: Float64Array;
    };

/** The wall-clock time in milliseconds, with the sub-millisecond part, comparable across threads. */
export const wallClock = () => performance.timeOrigin + performance.now();

type Stream = { userId: number; req: ClientRequest; connected: boolean; closed: boolean; received: string[] };

/**
 * Opens one event stream; resolves when the server's first comment (": connected") has arrived. Each
 * toast's id goes to `received`, and its latency to `onLatency` when its message ends with a publish time.
 */
export function openStream(
  url: string,
  cookie: string,
  userId: number,
  onLatency: (ms: number) => void,
): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`stream of user ${userId}: not connected in 30 s`)), 30_000);
    // The answer's callback runs after `s` below is made (the request is only sent by req.end()).
    const req = request(`${url}/api/sse`, { headers: { cookie, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        reject(new Error(`stream of user ${userId}: status ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let start = 0;
        let end: number;
        while ((end = buffer.indexOf('\n\n', start)) >= 0) {
          const message = buffer.slice(start, end);
          start = end + 2;
          if (!s.connected && message.includes(': connected')) {
            s.connected = true;
            clearTimeout(timer);
            resolve(s);
          }
          // A toast: "id: <id>\nevent: toast\ndata: {...,"message":"... <published at>"}".
          if (message.startsWith('id: ') && message.includes('\nevent: toast\n')) {
            s.received.push(message.slice(4, message.indexOf('\n')));
            const t0 = Number(message.slice(message.lastIndexOf(' ') + 1, message.lastIndexOf('"')));
            if (t0 > 0) onLatency(wallClock() - t0);
          }
        }
        buffer = buffer.slice(start);
      });
      res.on('close', () => (s.closed = true));
    });
    const s: Stream = { userId, req, connected: false, closed: false, received: [] };
    s.req.on('error', (err) => {
      s.closed = true;
      clearTimeout(timer);
      if (!s.connected) reject(err);
    });
    s.req.end();
  });
}

async function runWorker(input: ClientsInput) {
  if (!parentPort) throw new Error('bench/sse-clients.ts runs as a worker thread');
  const port: MessagePort = parentPort;
  const latencies: number[] = [];
  const onLatency = (ms: number) => latencies.push(ms);
  const streams: Stream[] = [];
  const t = performance.now();
  try {
    for (let i = 0; i < input.streams.length; i += input.openBatch) {
      const batch = input.streams
        .slice(i, i + input.openBatch)
        .map((x) => openStream(input.url, x.cookie, x.userId, onLatency));
      streams.push(...(await Promise.all(batch)));
    }
    port.postMessage({ type: 'open', ms: performance.now() - t } satisfies ClientsMessage);
  } catch (err) {
    port.postMessage({ type: 'open', ms: performance.now() - t, error: String(err) } satisfies ClientsMessage);
  }
  // Asked to finish: wait until every stream has `toasts` toasts (at most `timeoutMs`), then report and close.
  port.once('message', ({ toasts, timeoutMs }: FinishRequest) => void finish(toasts, timeoutMs));
  async function finish(toasts: number, timeoutMs: number) {
    const until = performance.now() + timeoutMs;
    while (streams.some((s) => s.received.length < toasts) && performance.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const result: ClientsMessage = {
      type: 'result',
      streams: streams.map((s) => ({ userId: s.userId, received: s.received, closed: s.closed })),
      latencies: Float64Array.from(latencies),
    };
    for (const s of streams) s.req.destroy();
    port.postMessage(result);
  }
}

if (parentPort && workerData) void runWorker(workerData as ClientsInput);
