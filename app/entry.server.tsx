// Remix's server entry (its Node default) with two changes: every inline script carries the nonce of the
// response's Content-Security-Policy (from the load context, server/http/security-headers.ts), and errors are
// logged as one line by the server's logger, never written into a response.
import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceContext } from './utils/nonce.ts';

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Crawlers get the whole page at once; browsers get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set('Content-Type', 'text/html');
      resolve(
        new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
      );
      pipeQuietly(pipe, body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          // Done: the abort timer would otherwise keep this render (its tree and buffers) alive for 5 s.
          clearTimeout(timer);
          if (waitForAll) ready();
        },
        onShellReady: waitForAll ? undefined : ready,
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by handleError; a browser that went away (the answer's
          // stream is then cancelled, server/http/remix.ts) is no failure.
          if (shellRendered && !request.signal.aborted)
            loadContext.services.log.error({ reqId: loadContext.requestId, err: error }, 'render failed');
        },
      },
    );
    // Its callbacks above run in later turns (React starts rendering in setImmediate), after this is set.
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * React's pipe, without two costs every page paid for nothing (react-dom 18.3's renderToPipeableStream): it makes
 * its two abort reasons (`new Error`) when it starts piping, each with a stack captured that no one reads; and its
 * handler of the stream's 'close' aborts the render even after the render ended the stream itself, which ends it
 * again, and Node builds an ERR_STREAM_ALREADY_FINISHED with its stack for that (0.8 % of /sims's CPU in a profile).
 * Once the render has ended the stream ('finish': React wrote all and called end), there is nothing left to abort,
 * so its 'close' handler is removed then; a stream closed before that (the browser went away) still aborts it.
 */
function pipeQuietly(pipe: (destination: PassThrough) => unknown, body: PassThrough) {
  const before = new Set(body.listeners('close'));
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    pipe(body);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const abortOnClose = body.listeners('close').filter((l) => !before.has(l));
  body.once('finish', () => {
    for (const l of abortOnClose) body.off('close', l as (...args: unknown[]) => void);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return; // the browser went away: nothing failed
  context.services.log.error(
    { reqId: context.requestId, err: error, path: new URL(request.url).pathname },
    'request failed',
  );
};
