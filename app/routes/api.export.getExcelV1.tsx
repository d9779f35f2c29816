// GET /api/export/getExcelV1?start_year=&start_month=&end_year=&end_month= : the invoice specification
// as a streamed xlsx download. A bad query answers 400 { error, issues }; a browser navigation (the form
// without JS) is sent back to /export with the values, where the message is shown.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { errorBody } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';
import { databaseDown, isNavigation, untilAborted } from '#app/utils/downloads.server.ts';
import { procedureProblem } from '#app/utils/forms.server.ts';

const FIELDS = ['start_year', 'start_month', 'end_year', 'end_month'] as const;

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
    if (err instanceof Response && err.status === 503) return databaseDown(navigation, String(context.cspNonce ?? ''));
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
