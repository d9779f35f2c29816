// GET /auth/sso/callback: where a company's identity provider sends the browser back after its sign-in. An OAuth
// callback is necessarily a GET; it is guarded by the state (single use, stored server-side), PKCE and the
// browser binding cookie. Signed in: on to the target (or the passkey page first). Refused: no session, and this
// page says why (the same address with only `problem`, so a reload does not replay the code).
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { ssoBinding } from '#app/utils/sso.server.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const s = tSecurity.sso;

export const meta: MetaFunction = () => [
  { title: `${s.problemTitle} – ${t.appName}` },
  { name: 'referrer', content: 'no-referrer' },
];
export const headers: HeadersFunction = () => ({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = url.searchParams;
  if (!q.has('state') && !q.has('code') && !q.has('error')) {
    const problem = q.get('problem') ?? '';
    return { message: s.problems[problem] ?? s.problems.invalid };
  }
  const result = await context.trpc.sso.finish({
    search: url.search.slice(0, 8000),
    binding: ssoBinding(request, context),
  });
  const noReferrer = { 'Referrer-Policy': 'no-referrer' };
  if (result.problem)
    throw redirect(`/auth/sso/callback?problem=${result.problem}`, { headers: procedureHeaders(context, noReferrer) });
  const target = safeRedirectTarget(result.redirectTo, '/', context.services.config.appUrl);
  // A passkey to use, or to add first: the passkey page comes before anything else.
  const next =
    result.stage === 'full'
      ? target
      : `/login/passkey${target === '/' ? '' : `?redirectTo=${encodeURIComponent(target)}`}`;
  throw redirect(next, { headers: procedureHeaders(context, noReferrer) });
}

export default function SsoCallback() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{s.problemTitle}</h1>
      <Notice kind="error" role="alert">
        {message}
      </Notice>
      <p>
        <Link to="/login">{s.backToLogin}</Link>
      </p>
    </>
  );
}
