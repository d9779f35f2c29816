// POST /auth/logout: deletes the session row (an old cookie is then worthless) and goes to /login.
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { isFetchRequest, procedureHeaders } from '#app/utils/http.server.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  await context.trpc.auth.logout();
  const headers = procedureHeaders(context);
  if (isFetchRequest(request)) return new Response(null, { status: 204, headers });
  return redirect('/login', { headers });
}

export function loader() {
  return Response.json({ error: 'Använd POST.' }, { status: 405, headers: { Allow: 'POST' } });
}
