// GET /auth/sso/continue?to=<the provider's authorization URL>: hands the browser on to its company's identity
// provider. The login form cannot redirect there itself: the pages' Content-Security-Policy has form-action
// 'self', which a browser also applies to the redirects of a form post, so a form post that is redirected to
// the provider is blocked. This page is reached by a same-origin redirect and moves on by a refresh (without
// JavaScript) or location.replace (with it). Only the authorization URL of a login this browser has in flight is
// followed (never an open redirect).
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { ssoBinding } from '#app/utils/sso.server.ts';

const s = tSecurity.sso;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${s.continueTitle} – ${t.appName}` },
  ...(data ? [{ httpEquiv: 'refresh', content: `0;url=${data.url}` }] : []),
];
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const to = new URL(request.url).searchParams.get('to') ?? '';
  const { url } = await context.trpc.sso.continueTo({ url: to.slice(0, 8000), binding: ssoBinding(request, context) });
  if (!url) throw redirect('/auth/sso/callback?problem=invalid');
  return { url };
}

export default function SsoContinue() {
  const { url } = useLoaderData<typeof loader>();
  useEffect(() => window.location.replace(url), [url]);
  return (
    <>
      <h1>{s.continueTitle}</h1>
      <p>
        <a className="btn btn-primary" href={url}>
          {s.continueLink}
        </a>
      </p>
    </>
  );
}
