// /security/confirm?redirectTo=: the step-up page, which offers what the user has and then goes back to the page
// whose change needed it (sensitive changes are then allowed for 10 minutes):
// - a passkey: the passkey (JS), the company's provider with MFA where the user signed in through it, or one of
//   their recovery codes (a plain form);
// - no passkey yet: a step-up link to their e-mail (a plain form; the link, /security/confirm/link, comes back
//   here), or the provider; once stepped up, adding a passkey (JS) or going on without one (the way without JS).
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from '@remix-run/react';
import { useRef } from 'react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { PasskeyButton } from '#app/components/security/PasskeyButton.tsx';
import { RecoveryCodeForm } from '#app/components/security/RecoveryCodeForm.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { steppedUp, stepUpReturnCookie } from '#app/utils/step-up-link.server.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const p = tSecurity.stepUpPrompt;
const k = tSecurity.passkeys;

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
  return {
    redirectTo,
    hasPasskey: session.hasPasskey,
    steppedUp: steppedUp(session),
    email: session.email,
    ssoStepUp,
  };
}

type ActionData = { error?: string; sent?: boolean };

export async function action({ request, context }: ActionFunctionArgs): Promise<ActionData | Response> {
  requireUser(request, context);
  const form = await request.formData();
  const redirectTo = safeRedirectTarget(formText(form, 'redirectTo'), '/security', context.services.config.appUrl);
  if (formText(form, 'intent') === 'sendLink') {
    const sent = await attempt(() => context.trpc.passkeys.requestStepUpLink());
    if (!sent.ok) return { error: Object.values(sent.fields)[0] };
    // Where to go back to after the link: kept in this browser (the link works in this session only), not in the mail.
    return Response.json({ sent: true } satisfies ActionData, {
      headers: { 'Set-Cookie': stepUpReturnCookie(redirectTo, context.services.config.secureCookies) },
    });
  }
  const done = await attempt(() => context.trpc.passkeys.recoveryStepUp({ code: formText(form, 'code') }));
  if (!done.ok) return { error: done.fields.code ?? Object.values(done.fields)[0] ?? tSecurity.recovery.wrong };
  return redirect(redirectTo);
}

export default function SecurityConfirm() {
  const { redirectTo, hasPasskey, steppedUp, email, ssoStepUp } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>() as ActionData | undefined;
  const navigate = useNavigate();
  const busy = useNavigation().state === 'submitting';
  const nameRef = useRef<HTMLInputElement>(null);
  const sso = ssoStepUp ? (
    <form method="post" action="/auth/sso/step-up" className="card">
      <p>{p.ssoIntro}</p>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button className="btn" type="submit">
        {tSecurity.sso.stepUpSso}
      </button>
    </form>
  ) : null;

  if (hasPasskey)
    return (
      <div className="passkey-page">
        <h1>{p.title}</h1>
        <div className="card">
          <p>{p.intro}</p>
          <PasskeyButton purpose="stepUp" label={p.button} onDone={() => navigate(redirectTo)} />
        </div>
        <h2>{p.otherWays}</h2>
        {sso}
        <RecoveryCodeForm error={acted?.error} redirectTo={redirectTo} />
      </div>
    );

  // No passkey, stepped up (the e-mail link or the provider): add one now, or go on for these 10 minutes.
  if (steppedUp)
    return (
      <div className="passkey-page">
        <h1>{p.addTitle}</h1>
        <Notice kind="success" role="status">
          {p.addIntro}
        </Notice>
        <div className="card">
          <PasskeyButton<unknown>
            purpose="register"
            label={p.addAndContinue}
            name={() => nameRef.current?.value ?? ''}
            onDone={() => navigate(redirectTo)}
          >
            <div className="field">
              <label htmlFor="passkey-name">{k.nameLabel}</label>
              <input
                id="passkey-name"
                ref={nameRef}
                type="text"
                maxLength={100}
                placeholder={k.defaultName(1)}
                aria-describedby="passkey-name-hint"
              />
              <p id="passkey-name-hint" className="hint">
                {k.nameHint}
              </p>
            </div>
          </PasskeyButton>
        </div>
        <p>
          <Link to={redirectTo} aria-describedby="continue-without-hint">
            {p.continueWithout}
          </Link>
        </p>
        <p id="continue-without-hint" className="muted">
          {p.continueWithoutHint}
        </p>
      </div>
    );

  return (
    <div className="passkey-page">
      <h1>{p.title}</h1>
      {acted?.error ? (
        <Notice kind="error" role="alert">
          {acted.error}
        </Notice>
      ) : null}
      {acted?.sent ? (
        <Notice kind="success" role="status" as="div">
          <p>{p.linkSent(email)}</p>
          <p>{p.linkSentAgain}</p>
        </Notice>
      ) : null}
      <Form method="post" className="card">
        <p>{p.noneIntro}</p>
        <input type="hidden" name="intent" value="sendLink" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {p.sendLink}
        </button>
      </Form>
      {sso}
    </div>
  );
}
