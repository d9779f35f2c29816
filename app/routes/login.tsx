// Login: one e-mail field; the link arrives by e-mail. Same notice whether or not the account exists.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import type { FieldConstraint } from '#app/utils/constraints.ts';
import { loginConstraint, readLoginInput } from '#app/utils/login-input.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { PasskeySignIn } from '#app/components/security/PasskeySignIn.tsx';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { ssoBinding } from '#app/utils/sso.server.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tSupport } from '#domain/texts/support.ts';
import { SupportContact } from '#app/components/ui/SupportContact.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';

export const meta: MetaFunction = () => [{ title: `${t.login.title} – ${t.appName}` }];

export async function loader({ context }: LoaderFunctionArgs) {
  if (context.session) throw redirect('/');
  if (context.pending) throw redirect('/login/passkey');
  return { destination: loginConstraint(), support: context.services.config.supportEmail ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { parsed, value } = await readLoginInput(request);
  if (!parsed.success) return { error: t.login.emailInvalid, value };
  const redirectTo = safeRedirectTarget(parsed.data.redirectTo, '', context.services.config.appUrl);
  // An address of a company with its own identity provider signs in there.
  const sso = await context.trpc.sso.start({
    destination: parsed.data.destination,
    redirectTo: redirectTo || null,
    binding: ssoBinding(request, context),
  });
  // Through a page of ours: the form's own redirect to the provider would break the pages' CSP form-action.
  if (sso.redirect)
    return redirect(`/auth/sso/continue?to=${encodeURIComponent(sso.redirect)}`, {
      headers: procedureHeaders(context),
    });
  if (sso.problem) return { error: tSecurity.sso.problems[sso.problem] ?? t.login.emailInvalid, value };
  await context.trpc.auth.requestLink({ destination: parsed.data.destination, redirectTo: redirectTo || null });
  return redirect('/login?sent=1');
}

export default function Login() {
  const { destination, support } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const redirectTo = params.get('redirectTo');
  const sent = params.get('sent') === '1';
  const problem = params.get('link');
  return (
    <>
      <h1>{t.login.title}</h1>
      {sent ? (
        <Notice kind="success" role="status">
          {t.login.sent}
        </Notice>
      ) : null}
      {problem === 'expired' || problem === 'used' || problem === 'invalid' ? (
        <Notice kind="error" role="alert">
          {problem === 'expired' ? t.login.linkExpired : problem === 'used' ? t.login.linkUsed : t.login.linkInvalid}
        </Notice>
      ) : null}
      <LoginForm constraint={destination} redirectTo={redirectTo} error={data?.error} value={data?.value} busy={busy} />
      <PasskeySignIn redirectTo={redirectTo} />
      <SupportContact className="muted" address={support} text={tSupport.register} fallback={t.login.register} />
    </>
  );
}

export function LoginForm({
  constraint,
  redirectTo,
  error,
  value,
  busy,
}: {
  constraint: FieldConstraint;
  redirectTo?: string | null;
  error?: string;
  value?: string;
  busy?: boolean;
}) {
  return (
    <Form method="post" action="/login" className="card" noValidate>
      <ErrorSummary errors={error ? { destination: error } : null} fields={{ destination: {} }} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <div className={error ? 'field invalid' : 'field'}>
        <label htmlFor="destination">{t.login.email}</label>
        <input
          id="destination"
          name="destination"
          type="email"
          autoComplete="email"
          // The page's one task: the field is ready to type in (a refused post focuses the error summary instead).
          autoFocus={!error}
          {...constraint}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'destination-error' : undefined}
        />
        {error ? (
          <p id="destination-error" className="error">
            {error}
          </p>
        ) : null}
      </div>
      <button className="btn btn-primary" type="submit" disabled={busy}>
        {t.login.submit}
      </button>
    </Form>
  );
}
