// /security/confirm?redirectTo=: the step-up page. The user confirms with a passkey (JS) or one of their recovery
// codes (a plain form) and goes back to the page whose change needed it; sensitive changes are then allowed for
// 10 minutes.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigate } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { PasskeyButton } from '#app/components/security/PasskeyButton.tsx';
import { RecoveryCodeForm } from '#app/components/security/RecoveryCodeForm.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const p = tSecurity.stepUpPrompt;

export const ErrorBoundary = routeErrorBoundary(p.title);
export const meta: MetaFunction = () => [{ title: `${p.title} – ${t.appName}` }];
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const redirectTo = safeRedirectTarget(
    new URL(request.url).searchParams.get('redirectTo'),
    '/security',
    context.services.config.appUrl,
  );
  // An owner signed in by the company's own provider, which does MFA, may confirm through the provider too.
  const ssoStepUp =
    session.method === 'sso' &&
    session.actingCompanyId === null &&
    session.role === 'owner' &&
    !!(await context.trpc.sso.settings()).sso?.mfaClaim;
  return { redirectTo, hasPasskey: session.hasPasskey, ssoStepUp };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const done = await attempt(() => context.trpc.passkeys.recoveryStepUp({ code: formText(form, 'code') }));
  if (!done.ok) return { error: done.fields.code ?? Object.values(done.fields)[0] ?? tSecurity.recovery.wrong };
  return redirect(safeRedirectTarget(formText(form, 'redirectTo'), '/security', context.services.config.appUrl));
}

export default function SecurityConfirm() {
  const { redirectTo, hasPasskey, ssoStepUp } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const navigate = useNavigate();
  return (
    <div className="passkey-page">
      <h1>{p.title}</h1>
      {hasPasskey ? (
        <div className="card">
          <p>{p.intro}</p>
          <PasskeyButton purpose="stepUp" label={p.button} onDone={() => navigate(redirectTo)} />
        </div>
      ) : (
        <Notice>{tSecurity.passkeys.none}</Notice>
      )}
      {ssoStepUp ? (
        <form method="post" action="/auth/sso/step-up" className="card">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button className="btn" type="submit">
            {tSecurity.sso.stepUpSso}
          </button>
        </form>
      ) : null}
      <RecoveryCodeForm error={acted?.error} redirectTo={redirectTo} />
    </div>
  );
}
