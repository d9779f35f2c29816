// POST /auth/sso/step-up: a session signed in through its company's identity provider, whose company names the
// provider's MFA (amr/acr), confirms a sensitive change there instead of with a passkey: the provider is asked to
// authenticate the user again (prompt=login, max_age=0); the callback marks the session stepped up.
import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { errorBody } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { formText } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { ssoBinding } from '#app/utils/sso.server.ts';

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const redirectTo = safeRedirectTarget(formText(form, 'redirectTo'), '/', context.services.config.appUrl);
  const started = await context.trpc.sso.stepUp({ redirectTo, binding: ssoBinding(request, context) });
  if (!started.redirect) return redirect(`/auth/sso/callback?problem=${started.problem ?? 'invalid'}`);
  return redirect(`/auth/sso/continue?to=${encodeURIComponent(started.redirect)}`, {
    headers: procedureHeaders(context),
  });
}

export function loader() {
  return Response.json(errorBody(t.errors.usePost), { status: 405, headers: { Allow: 'POST' } });
}
