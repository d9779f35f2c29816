// The document: language, theme, header and the back link around every page.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import { BackLink } from './components/BackLink.tsx';
import { RouteError } from './components/RouteError.tsx';
import { StepUpPrompt } from './components/security/StepUpPrompt.tsx';
import { Toaster } from './components/Toaster.tsx';
import stylesHref from '#app/styles/app.css?url';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { needsStepUpHere } from '#app/utils/step-up.ts';
import { stepUpWanted } from '#app/utils/step-up.server.ts';
import { submissionFailed } from './utils/forms.ts';
import { useNonce } from './utils/nonce.ts';
import { readTheme } from './utils/theme.ts';
import './load-context.ts';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesHref },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [{ title: t.appName }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const s = context.session;
  const flash = s?.flash ? await context.trpc.auth.takeFlash() : null;
  return {
    flash,
    theme: readTheme(request.headers.get('cookie')),
    user: s
      ? {
          name: s.name,
          isSuperAdmin: s.isSuperAdmin,
          actingCompanyName: s.actingCompanyId ? s.companyName : null,
          // Changes on the step-up paths will be refused until the session uses a passkey.
          stepUpWanted: stepUpWanted(s),
        }
      : null,
  };
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  submissionFailed(actionResult) ? false : defaultShouldRevalidate;

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const theme = data?.theme ?? 'dark';
  const nonce = useNonce();
  const { pathname } = useLocation();
  const askStepUp = !!data?.user?.stepUpWanted && needsStepUpHere(pathname);
  return (
    <html lang="sv" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === 'light' ? 'light' : 'dark'} />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip" href="#main">
          Hoppa till innehållet
        </a>
        <header className="header">
          <Link className="brand" to="/">
            {t.appName}
          </Link>
          {data?.user ? (
            <Link className="btn btn-link header-security" to="/security">
              {tSecurity.menuLink}
            </Link>
          ) : null}
          <form method="post" action="/theme">
            <input type="hidden" name="theme" value={theme === 'light' ? 'dark' : 'light'} />
            <button className="btn btn-link" type="submit">
              {theme === 'light' ? t.theme.dark : t.theme.light} tema
            </button>
          </form>
        </header>
        {data?.user?.actingCompanyName ? (
          <div className="banner" role="status">
            <span>{t.acting.banner(data.user.actingCompanyName)}</span>
            <form method="post" action="/auth/own-company">
              <button className="btn" type="submit">
                {t.acting.back}
              </button>
            </form>
          </div>
        ) : null}
        <main id="main" className="main">
          <BackLink />
          {askStepUp ? <StepUpPrompt /> : null}
          {children}
        </main>
        <Toaster flash={data?.flash ?? null} loggedIn={!!data?.user} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  return <RouteError />;
}
