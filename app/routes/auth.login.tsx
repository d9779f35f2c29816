// POST /auth/login { destination }: the API door of the login form (form-encoded or JSON).
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { errorBody } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';
import { isFetchRequest, procedureHeaders } from '#app/utils/http.server.ts';
import { ssoBinding } from '#app/utils/sso.server.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { readLoginInput } from '#app/utils/login-input.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';

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
  // An address of a company with its own identity provider signs in there: a script gets the URL to go to.
  const sso = await context.trpc.sso.start({
    destination: parsed.data.destination,
    redirectTo,
    binding: ssoBinding(request, context),
  });
  if (sso.redirect) {
    const headers = procedureHeaders(context);
    // Through a page of ours: a form's own redirect to the provider would break the pages' CSP form-action.
    if (!fetchRequest) return redirect(`/auth/sso/continue?to=${encodeURIComponent(sso.redirect)}`, { headers });
    return Response.json({ redirect: sso.redirect }, { headers });
  }
  if (sso.problem) {
    const message = tSecurity.sso.problems[sso.problem] ?? t.login.emailInvalid;
    if (!fetchRequest) return redirect(`/auth/sso/callback?problem=${sso.problem}`);
    const status = sso.problem === 'tooMany' ? 429 : 503;
    return Response.json(errorBody(message), { status, headers: { 'Retry-After': status === 429 ? '900' : '30' } });
  }
  await context.trpc.auth.requestLink({ destination: parsed.data.destination, redirectTo });
  if (!fetchRequest) return redirect('/login?sent=1');
  return Response.json({ success: true, message: t.login.sent });
}

export function loader() {
  return Response.json(errorBody(t.errors.usePost), { status: 405, headers: { Allow: 'POST' } });
}
