// /company/api-keys/{id}/revoke: the confirm page (JS or not) before an owner revokes an API key; the POST
// revokes it at once (its next request gets 401), after a step-up; a missing one is said above the question
// (the layout's prompt offers it).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ConfirmPage } from '#app/components/ConfirmPage.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { attempt, idParam, pageError } from '#app/utils/forms.server.ts';
import { stepUpRefusal } from '#app/utils/step-up.server.ts';

const k = tApiKeys;

export const ErrorBoundary = routeErrorBoundary(k.revokeTitle);

export const meta: MetaFunction = () => [{ title: `${k.revokeTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireOwner(request, context);
  try {
    const key = await context.trpc.apiKeys.get({ id: idParam(params.id) });
    return { name: key.name, prefix: key.prefix, status: key.status };
  } catch (e) {
    pageError(e);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = requireOwner(request, context);
  const result = await attempt(() => context.trpc.apiKeys.revoke({ id: idParam(params.id) }));
  // Wanting a step-up: the layout's prompt above says how; the question stays for after it.
  if (!result.ok && result.stepUp) return { error: stepUpRefusal(session) };
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  return redirect('/company/api-keys?notice=revoked');
}

export default function ApiKeyRevoke() {
  const { name, prefix } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <ConfirmPage
      title={k.revokeTitle}
      error={data?.error}
      pageClass="apikeys"
      textClass="apikeys-confirm"
      cancelTo="/company/api-keys"
      cancelLabel={k.cancel}
      confirmLabel={k.revokeYes}
    >
      {k.revokeConfirm(name, prefix)}
    </ConfirmPage>
  );
}
