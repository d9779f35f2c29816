// The answers of the downloads served by Remix routes (the invoice specification): whether a request is a browser's
// navigation, the body ended quietly when the browser goes away, and the 503 when the database is out of reach.
import { errorBody } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '#server/http/answer.ts';
import { plainPage } from '#server/http/guards.ts';

/** A page navigation by a browser (a form submitted without JS), as opposed to fetch() or an API client. */
export function isNavigation(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/**
 * The body, ended quietly when the browser goes away (Remix aborts the request's signal): cancelling the
 * source stops the export's database reads instead of writing the rest of the file to nobody.
 */
export function untilAborted(source: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let closed = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const stop = () => {
          reader.cancel(new Error('the download was cancelled')).catch(() => {});
          if (!closed) {
            closed = true;
            controller.close();
          }
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      },
      async pull(controller) {
        const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (closed) return;
        if (r.done) {
          closed = true;
          controller.close();
        } else controller.enqueue(r.value);
      },
      cancel(reason) {
        closed = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The database out of reach or overloaded: a Swedish page for a browser's navigation, JSON otherwise. */
export function databaseDown(navigation: boolean, cspNonce: string): Response {
  const headers = { 'Cache-Control': 'no-store', 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) };
  if (!navigation) return Response.json(errorBody(t.errors.databaseDown), { status: 503, headers });
  const page = plainPage(
    cspNonce,
    t.errors.databaseDownTitle,
    `<p>${t.errors.databaseDown}</p><p><a href="">${t.errors.retry}</a></p>`,
  );
  return new Response(page, { status: 503, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
}
