// POST /add/bulk/result: a bulk activation's result as a file, "Ladda ner resultat" on /add/bulk.
// Only formats: the result page posts its rows back ([ICCID, outcome] pairs, at most 10,000) and gets them as
// CSV or XLSX, each row's message made again from its outcome. Nothing is read or changed in the database,
// so the result can be downloaded as often as wanted; a POST rather than a GET because the rows are the
// request's own (a GET would carry them in the URL), and a plain form, so the browser downloads it with or
// without JS. Not a re-run of the list as a dry run: that would answer what the list would do now, not what
// it did.
import type { ActionFunctionArgs } from '@remix-run/node';
import { bulkResultAction } from '#app/utils/bulk-files.server.ts';

export async function action(args: ActionFunctionArgs) {
  return bulkResultAction(args);
}

export function loader() {
  throw new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } });
}
