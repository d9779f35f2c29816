// The one tRPC client of the browser: batched calls to /api/trpc, typed by the server's router.
// maxItems: the server refuses a batch of more than 10 calls (MAX_BATCH_CALLS in server/http/trpc.ts).
// Pages import it lazily (import()) when an enhancement first needs it, so it is never in an initial load.
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '#server/trpc/router.ts';

export const trpc = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: '/api/trpc',
      maxItems: 10,
      fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
    }),
  ],
});
