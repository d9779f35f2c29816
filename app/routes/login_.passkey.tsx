// /login/passkey: a session still signing in. Stage passkey (after the e-mail link): the user's passkey, or one of
// their recovery codes (a plain form, also without JavaScript). Stage register (a passkey is required and the
// user has none): add one, see the recovery codes once, continue. Anyone else goes to /login or on.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { LogoutForm } from '#app/components/LogoutForm.tsx';
import { useRef, useState } from 'react';
import { PasskeyButton } from '#app/components/security/PasskeyButton.tsx';
import { RecoveryCodes } from '#app/components/security/RecoveryCodes.tsx';
import { RecoveryCodeForm } from '#app/components/security/RecoveryCodeForm.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const s = tSecurity.secondFactor;

export const meta: MetaFunction = () => [{ title: `${s.title} – ${t.appName}` }];
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

function target(request: Request, appUrl: string, sent?: string): string {
  return safeRedirectTarget(sent ?? new URL(request.url).searchParams.get('redirectTo'), '/', appUrl);
}

export function loader({ request, context }: LoaderFunctionArgs) {
  const appUrl = context.services.config.appUrl;
  if (context.session) throw redirect(target(request, appUrl));
  if (!context.pending) throw redirect('/login');
  return { stage: context.pending.stage, redirectTo: target(request, appUrl), name: context.pending.name };
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!context.pending) throw redirect(context.session ? '/' : '/login');
  const form = await request.formData();
  const done = await attempt(() => context.trpc.passkeys.recoverySignIn({ code: formText(form, 'code') }));
  if (!done.ok) return { error: done.fields.code ?? Object.values(done.fields)[0] ?? tSecurity.recovery.wrong };
  return redirect(target(request, context.services.config.appUrl, formText(form, 'redirectTo')), {
    headers: procedureHeaders(context),
  });
}

type Registered = { name: string; recoveryCodes: string[] | null; signedIn: boolean };

export default function LoginPasskey() {
  const { stage, redirectTo } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const [codes, setCodes] = useState<string[] | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  // A full page load after the sign-in: the layout reads the new session.
  const go = () => window.location.assign(redirectTo);
  return (
    <div className="passkey-page">
      {stage === 'register' ? (
        <>
          <h1>{s.registerTitle}</h1>
          {codes ? (
            <>
              <Notice kind="success" role="status">
                {s.registered}
              </Notice>
              <RecoveryCodes codes={codes} />
              <p>
                <a className="btn btn-primary" href={redirectTo}>
                  {tSecurity.recovery.continue}
                </a>
              </p>
            </>
          ) : (
            <div className="card">
              <p>{s.registerIntro}</p>
              <PasskeyButton<Registered>
                purpose="register"
                label={s.registerButton}
                name={() => nameRef.current?.value ?? ''}
                onDone={(done) => (done.recoveryCodes ? setCodes(done.recoveryCodes) : go())}
              >
                <div className="field">
                  <label htmlFor="passkey-name">{tSecurity.passkeys.nameLabel}</label>
                  <input
                    id="passkey-name"
                    ref={nameRef}
                    type="text"
                    maxLength={100}
                    placeholder={tSecurity.passkeys.defaultName(1)}
                  />
                </div>
              </PasskeyButton>
            </div>
          )}
        </>
      ) : (
        <>
          <h1>{s.title}</h1>
          <div className="card">
            <p>{s.intro}</p>
            <PasskeyButton purpose="secondFactor" label={s.button} onDone={go} />
          </div>
          <RecoveryCodeForm error={acted?.error} redirectTo={redirectTo === '/' ? null : redirectTo} />
        </>
      )}
      {codes ? null : <LogoutForm className="btn btn-link">{s.logout}</LogoutForm>}
    </div>
  );
}
