// POST /auth/own-company: a super admin stops acting as another company.
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { requireUser } from '#app/utils/auth.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  await context.trpc.auth.stopActing();
  return redirect('/', { headers: procedureHeaders(context) });
}

export function loader() {
  return redirect('/');
}
