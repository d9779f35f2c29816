// /admin/companies/{companyId}/sign-in: a super admin's view of a company's sign-in settings: its identity
// provider (OpenID Connect) with its domains, and passkeys for everyone. Every change needs a recent step-up.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { SignInSettings } from '#app/components/SignInSettings.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { idParam, pageError } from '#app/utils/forms.server.ts';
import { signInConstraints, signInSettingsAction } from '#app/utils/sign-in-settings.server.ts';

const s = tSecurity.sso;

export const ErrorBoundary = routeErrorBoundary(s.title);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${s.title}${data ? ` – ${data.settings.companyName}` : ''} – ${t.appName}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  const settings = await context.trpc.sso.adminSettings({ companyId }).catch(pageError);
  return { settings, form: signInConstraints() };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  return signInSettingsAction(request, {
    save: (input) => context.trpc.sso.adminSave({ companyId, ...input }),
    remove: () => context.trpc.sso.adminRemove({ companyId }),
    requirePasskeys: (requirePasskeys) => context.trpc.sso.adminRequirePasskeys({ companyId, requirePasskeys }),
    checkDomain: (domain) => context.trpc.sso.adminCheckDomain({ companyId, domain }),
  });
}

export default function AdminCompanySignIn() {
  const { settings, form } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const here = `/admin/companies/${settings.companyId}/sign-in`;
  return (
    <div className="admin sign-in-settings">
      <h1>{s.title}</h1>
      <p className="muted subtitle">{settings.companyName}</p>
      <SignInSettings
        settings={settings}
        data={data}
        form={form}
        stepUpHref={`/security/confirm?redirectTo=${encodeURIComponent(here)}`}
      />
    </div>
  );
}
