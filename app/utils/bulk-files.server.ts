// The files of /add/bulk on the server's side: the templates and a result to download (made by
// server/sims/bulk-downloads.ts), and an uploaded list read (server/sims/bulk-file.ts) for the page's action.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { requireUser } from './auth.server.ts';
import { formText } from './forms.server.ts';
import { bulkResultFile, bulkTemplate, resultRowsOf, type DownloadFile } from '#server/sims/bulk-downloads.ts';

export { parseBulkFile } from '#server/sims/bulk-file.ts';

function download(file: DownloadFile): Response {
  return new Response(file.body, {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export function bulkTemplateLoader(format: 'csv' | 'xlsx') {
  return async ({ request, context }: LoaderFunctionArgs) => {
    requireUser(request, context);
    return download(await bulkTemplate(format));
  };
}

export async function bulkResultAction({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const format = formText(form, 'format');
  const rows = resultRowsOf(formText(form, 'results'));
  if ((format !== 'csv' && format !== 'xlsx') || !rows)
    return new Response(tBulkFile.badResult, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  return download(await bulkResultFile(format, rows));
}
