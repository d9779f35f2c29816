// POST /auth/login { destination }: the API door of the login form (form-encoded or JSON).
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { errorBody } from '../../server/errors/domain';
import { t } from '~/texts';
import { isFetchRequest } from '~/utils/http.server';
import { readLoginInput } from '~/utils/login-input.server';
import { safeRedirectTarget } from '~/utils/paths';

export async function action({ request, context }: ActionFunctionArgs) {
  const fetchRequest = isFetchRequest(request);
  const { parsed } = await readLoginInput(request);
  if (!parsed.success) {
    if (!fetchRequest) return redirect('/login');
    return Response.json(errorBody(t.login.emailInvalid, [{ path: ['destination'], message: t.login.emailInvalid }]), {
      status: 400,
    });
  }
  const redirectTo = safeRedirectTarget(parsed.data.redirectTo, '', context.services.config.appUrl) || null;
  await context.trpc.auth.requestLink({ destination: parsed.data.destination, redirectTo });
  if (!fetchRequest) return redirect('/login?sent=1');
  return Response.json({ success: true, message: t.login.sent });
}

export function loader() {
  return Response.json(errorBody(t.errors.usePost), { status: 405, headers: { Allow: 'POST' } });
}
