// /security/confirm/link?token=: the step-up link from the mail of a user without a passkey. Opening it shows a
// button (a mail scanner's GET uses nothing up); the POST uses the link in this session and goes on to
// /security/confirm, which offers to add a passkey and then goes back where the user was (a cookie of this
// browser holds where: app/utils/step-up-link.server.ts). Works without JavaScript.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { confirmHref } from '#app/utils/step-up.ts';
import { clearStepUpReturnCookie, readStepUpReturn } from '#app/utils/step-up-link.server.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const p = tSecurity.stepUpPrompt;

export const ErrorBoundary = routeErrorBoundary(p.linkTitle);
export const meta: MetaFunction = () => [{ title: `${p.linkTitle} – ${t.appName}` }];
// The token is in the address: never kept by a cache, never sent on as a referrer.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

function returnTo(request: Request, appUrl: string): string {
  return safeRedirectTarget(readStepUpReturn(request.headers.get('cookie')), '/security', appUrl);
}

export function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const token = (new URL(request.url).searchParams.get('token') ?? '').slice(0, 100);
  return { token, again: confirmHref(returnTo(request, context.services.config.appUrl)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const done = await attempt(() => context.trpc.passkeys.stepUpWithLink({ token: formText(form, 'token') }));
  if (!done.ok) return { error: Object.values(done.fields)[0] ?? p.linkProblem.invalid };
  const secure = context.services.config.secureCookies;
  return redirect(confirmHref(returnTo(request, context.services.config.appUrl)), {
    headers: { 'Set-Cookie': clearStepUpReturnCookie(secure) },
  });
}

export default function SecurityConfirmLink() {
  const { token, again } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="passkey-page">
      <h1>{p.linkTitle}</h1>
      {acted?.error ? (
        <Notice kind="error" role="alert" as="div">
          <p>{acted.error}</p>
          <p>
            <Link to={again}>{p.linkAgain}</Link>
          </p>
        </Notice>
      ) : null}
      <Form method="post" className="card">
        <p>{p.linkIntro}</p>
        <input type="hidden" name="token" value={token} />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {p.linkButton}
        </button>
      </Form>
    </div>
  );
}
