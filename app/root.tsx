// The document: language, theme, header and the back link around every page.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import { AppHeader, type Section } from './components/AppHeader.tsx';
import { BackLink } from './components/BackLink.tsx';
import { pageSkip, pageWidth } from './components/page-width.ts';
import { RouteError } from './components/RouteError.tsx';
import { StepUpPrompt } from './components/security/StepUpPrompt.tsx';
import { Toaster } from './components/Toaster.tsx';
import stylesHref from '#app/styles/app.css?url';
import { t } from '#domain/texts/common.ts';
import { callerRole, WRITE_ROLES } from '#domain/companies/kinds.ts';
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
  const role = s ? callerRole(s) : null;
  // The header's sections: what the caller's role may open (the home page's menu shows the same).
  const sections: Section[] = [];
  if (s && role) {
    sections.push('sims', 'usage');
    if (WRITE_ROLES.includes(role)) sections.push('add');
    sections.push('export');
    if (role === 'owner') sections.push('company');
    if (s.isSuperAdmin) sections.push('admin');
  }
  const flash = s?.flash ? await context.trpc.auth.takeFlash() : null;
  return {
    flash,
    theme: readTheme(request.headers.get('cookie')),
    // The plan form's "Se prislista" links here when set (PRICE_LIST_URL; app/components/PlanSelector.tsx).
    priceListUrl: s ? (context.services.config.priceListUrl ?? null) : null,
    user: s
      ? {
          name: s.name,
          companyName: s.companyName,
          sections,
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
  const matches = useMatches();
  const width = pageWidth(matches);
  const skip = pageSkip(matches);
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
        {skip ? (
          <a className="skip" href={skip.href}>
            {skip.label}
          </a>
        ) : null}
        <a className="skip" href="#main">
          Hoppa till innehållet
        </a>
        <AppHeader user={data?.user ?? null} theme={theme} />
        <main id="main" className={`main width-${width}`}>
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
