// /usage.csv and /usage.xlsx: the /usage page's rows as a file, streamed (the procedure writes it as it reads, the
// body ends quietly when the browser goes away). The same address values as the page; a bad one sends a browser
// back to the page, where its field says why, and answers anyone else 400 { error, issues }.
import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { errorBody } from '#domain/errors.ts';
import { requireUser } from './auth.server.ts';
import { databaseDown, isNavigation, untilAborted } from './downloads.server.ts';
import { procedureProblem } from './forms.server.ts';
import { pageGroupOf } from '#domain/usage/groups.ts';

export function usageFileLoader(format: 'csv' | 'xlsx') {
  return async ({ request, context }: LoaderFunctionArgs) => {
    requireUser(request, context);
    const url = new URL(request.url);
    const value = (name: 'from' | 'to' | 'granularity' | 'groupBy') =>
      url.searchParams.get(name)?.slice(0, 40) || undefined;
    try {
      const file = await context.trpc.usage.file({
        format,
        groupBy: pageGroupOf(value('groupBy')),
        granularity: value('granularity') === 'month' ? 'month' : 'day',
        from: value('from'),
        to: value('to'),
      });
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
      if (err instanceof Response && err.status === 503)
        return databaseDown(isNavigation(request), String(context.cspNonce ?? ''));
      const problem = procedureProblem(err);
      if (problem?.code !== 'BAD_REQUEST') throw err;
      if (isNavigation(request)) return redirect(`/usage${url.search}`, 303);
      return Response.json(errorBody(problem.message, problem.issues), {
        status: 400,
        headers: { 'Cache-Control': 'no-store' },
      });
    }
  };
}
