// When a request's handler has ended its answer: what graceful shutdown waits for (server/index.ts), whether or not
// the client is still there to read it. Middlewares replace res.end (compression ends the real one only once its
// output has drained, which never happens when the client has gone), so the handler's call of whichever end is
// current is what counts: `end` is an accessor that hands out the current end, wrapped to tell. It is defined once,
// on the prototype Express gives every response (app.response), not on each response: an accessor defined on an
// object of its own turned that object's properties into a dictionary in V8, so every read of a response's
// properties in Node, Express and the middlewares took the slow path. (A sub-app, `express()` mounted in the app,
// would give its responses its own prototype: the portal has none, and tests/api/shutdown.test.ts would see one.)
import { ServerResponse } from 'node:http';

const ENDED = Symbol('tells that the handler ended the answer');
const END = Symbol("the response's current end");
type End = ServerResponse['end'];
type Tracked = ServerResponse & { [ENDED]?: () => void; [END]?: End };

/** Makes `end` of the responses of this prototype (an Express app's `app.response`) tell whenEnded. */
export function trackEnds(proto: object): void {
  const inherited = Reflect.get(Object.getPrototypeOf(proto) as object, 'end') as End;
  Object.defineProperty(proto, 'end', {
    configurable: true,
    get(this: Tracked): End {
      const current = this[END] ?? inherited;
      const ended = this[ENDED];
      return function (this: unknown, ...args: Parameters<End>) {
        ended?.();
        return current.apply(this, args);
      } as End;
    },
    set(this: Tracked, fn: End) {
      this[END] = fn;
    },
  });
}

/** Settles once this response's handler calls its end (any end a middleware put in its place). */
export function whenEnded(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    (res as Tracked)[ENDED] = resolve;
  });
}
