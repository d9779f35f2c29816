// The link from the mail. GET only shows a "Logga in" button (mail scanners that fetch links do not
// use them up); the POST logs in. No referrer leaks the token to other sites.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import type { LinkProblem } from '#server/auth/login.ts';
import { t } from '#domain/texts/common.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { loginConstraint } from '#app/utils/login-input.server.ts';
import { tSupport } from '#domain/texts/support.ts';
import { SupportContact } from '#app/components/ui/SupportContact.tsx';
import { LoginForm } from './login.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';

export const meta: MetaFunction = () => [
  { title: `${t.login.title} – ${t.appName}` },
  { name: 'referrer', content: 'no-referrer' },
];
export const headers: HeadersFunction = () => ({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const { problem } = await context.trpc.auth.checkLink({ token: token.slice(0, 2000) });
  return {
    token: problem ? '' : token,
    problem,
    destination: loginConstraint(),
    support: context.services.config.supportEmail ?? null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const sent = form.get('token');
  const token = typeof sent === 'string' ? sent : '';
  const result = await context.trpc.auth.consumeLink({ token: token.slice(0, 2000) });
  if (result.problem) return { problem: result.problem };
  const target = safeRedirectTarget(result.redirectTo, '/', context.services.config.appUrl);
  // A passkey to use, or to add first: the passkey page comes before anything else.
  const next =
    result.stage === 'full'
      ? target
      : `/login/passkey${target === '/' ? '' : `?redirectTo=${encodeURIComponent(target)}`}`;
  return redirect(next, {
    headers: procedureHeaders(context, { 'Referrer-Policy': 'no-referrer' }),
  });
}

const messages: Record<LinkProblem, string> = {
  invalid: t.login.linkInvalid,
  expired: t.login.linkExpired,
  used: t.login.linkUsed,
};

export default function Magic() {
  const { token, problem: loadProblem, destination, support } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const problem = acted?.problem ?? loadProblem;
  if (problem) {
    return (
      <>
        <h1>{t.login.title}</h1>
        <Notice kind="error" role="alert">
          {messages[problem]}
        </Notice>
        <LoginForm constraint={destination} />
        <SupportContact className="muted" address={support} text={tSupport.register} fallback={t.login.register} />
      </>
    );
  }
  return (
    <>
      <h1>{t.login.confirmTitle}</h1>
      <Form method="post" className="card" reloadDocument>
        <p>{t.login.confirmText}</p>
        <input type="hidden" name="token" value={token} />
        <button className="btn btn-primary" type="submit">
          {t.login.confirmButton}
        </button>
      </Form>
    </>
  );
}
