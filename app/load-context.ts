// The load context every loader and action receives from the Express server (server/http/request-context.ts):
// the tRPC caller bound to this request, the session and the services. Types only: no server code here.
import type { AppLoadContextValue } from '#server/http/request-context.ts';

declare module '@remix-run/node' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppLoadContextValue {}
}

export {};
