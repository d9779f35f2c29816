// /company/sign-in: the owner's settings of how the company's users sign in: the company's identity provider
// (OpenID Connect) with its domains and their proof (a DNS TXT record each, checked by "Kontrollera"), and passkeys
// for everyone. Every change needs a recent step-up.
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { SignInSettings } from '#app/components/SignInSettings.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { signInConstraints, signInSettingsAction } from '#app/utils/sign-in-settings.server.ts';

const s = tSecurity.sso;

export const ErrorBoundary = routeErrorBoundary(s.title);

export const meta: MetaFunction = () => [{ title: `${s.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const settings = await context.trpc.sso.settings();
  // Signed in by the company's own provider, which does MFA: the provider may confirm a change too.
  const ssoStepUp =
    session.method === 'sso' && session.actingCompanyId === null && !!settings.sso?.mfaClaim
      ? { redirectTo: '/company/sign-in' }
      : null;
  return { settings, form: signInConstraints(), ssoStepUp };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireOwner(request, context);
  return signInSettingsAction(request, {
    save: (input) => context.trpc.sso.save(input),
    remove: () => context.trpc.sso.remove(),
    requirePasskeys: (requirePasskeys) => context.trpc.sso.requirePasskeys({ requirePasskeys }),
    checkDomain: (domain) => context.trpc.sso.checkDomain({ domain }),
  });
}

export default function CompanySignIn() {
  const { settings, form, ssoStepUp } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="admin company-admin sign-in-settings">
      <h1>{s.title}</h1>
      <CompanyTabs />
      <p className="muted subtitle">{settings.companyName}</p>
      <SignInSettings
        settings={settings}
        data={data}
        form={form}
        stepUpHref={`/security/confirm?redirectTo=${encodeURIComponent('/company/sign-in')}`}
        ssoStepUp={ssoStepUp}
      />
    </div>
  );
}
