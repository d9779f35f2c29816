// GET /api/export/getExcelV1?start_year=&start_month=&end_year=&end_month= : the invoice specification
// as a streamed xlsx download. A bad query answers 400 { error, issues }; a browser navigation (the form
// without JS) is sent back to /export with the values, where the message is shown.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { errorBody } from '../../server/errors/domain';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../server/errors/answer';
import { plainPage } from '../../server/doors';
import { t } from '~/texts';
import { procedureProblem } from '~/utils/forms.server';

const FIELDS = ['start_year', 'start_month', 'end_year', 'end_month'] as const;

/** A page navigation by a browser (a form submitted without JS), as opposed to fetch() or an API client. */
function isNavigation(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (request.headers.get('accept') ?? '').includes('text/html');
}

/**
 * The body, ended quietly when the browser goes away (Remix aborts the request's signal): cancelling the
 * source stops the export's database reads instead of writing the rest of the file to nobody.
 */
function untilAborted(source: ReadableStream<Uint8Array>, signal: AbortSignal): ReadableStream<Uint8Array> {
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

const json = (body: unknown, status: number) =>
  Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const navigation = isNavigation(request);
  const query = Object.fromEntries(FIELDS.map((f) => [f, url.searchParams.get(f) ?? undefined]));
  const backToForm = () => {
    const params = new URLSearchParams();
    for (const f of FIELDS) params.set(f, url.searchParams.get(f) ?? '');
    return redirect(`/export?${params}`, 303);
  };
  if (!context.session) {
    if (navigation) return redirect(`/login?redirectTo=${encodeURIComponent('/export')}`);
    return json(errorBody(t.errors.unauthenticated), 401);
  }
  try {
    const file = await context.trpc.export.invoiceSpecification(query);
    return new Response(untilAborted(file.stream, request.signal), {
      status: 200,
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (err) {
    // The database out of reach or overloaded (pageCaller's 503): a Swedish page for the browser, JSON otherwise.
    if (err instanceof Response && err.status === 503) {
      const headers = { 'Cache-Control': 'no-store', 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) };
      if (!navigation) return Response.json(errorBody(t.errors.databaseDown), { status: 503, headers });
      const page = plainPage(
        String(context.cspNonce ?? ''),
        t.errors.databaseDownTitle,
        `<p>${t.errors.databaseDown}</p><p><a href="">${t.errors.retry}</a></p>`,
      );
      return new Response(page, { status: 503, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
    }
    const r = procedureProblem(err);
    if (!r) throw err;
    if (r.code === 'BAD_REQUEST') {
      if (navigation) return backToForm();
      return json(errorBody(r.message, r.issues), 400);
    }
    if (r.code === 'UNAUTHORIZED') return json(errorBody(r.message), 401);
    if (r.code === 'NOT_FOUND') return json(errorBody(r.message), 404);
    throw err;
  }
}
