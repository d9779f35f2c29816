// /admin/network/{id}/revoke: the confirm page (JS or not) before a super admin revokes a network key; the POST
// revokes it at once (its next request gets 401), after a step-up; a missing one is said above the question
// (the layout's prompt offers it). A key revoked already, or none with that id, is the 404 page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ConfirmPage } from '#app/components/ConfirmPage.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { attempt, idParam } from '#app/utils/forms.server.ts';
import { stepUpRefusal } from '#app/utils/step-up.server.ts';
import { t } from '#domain/texts/common.ts';
import { tNetwork } from '#domain/texts/network.ts';

const k = tNetwork;

export const ErrorBoundary = routeErrorBoundary(k.revokeTitle);

export const meta: MetaFunction = () => [{ title: `${k.revokeTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const id = idParam(params.id);
  // The list is short (at most 20 live keys and the few revoked): no read of its own for one key.
  const key = (await context.trpc.networkKeys.list()).find((row) => row.id === id && row.status === 'active');
  if (!key) throw new Response('Not Found', { status: 404 });
  return { name: key.name, prefix: key.prefix };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = requireSuperAdmin(request, context);
  const result = await attempt(() => context.trpc.networkKeys.revoke({ id: idParam(params.id) }));
  // Wanting a step-up: the layout's prompt above says how; the question stays for after it.
  if (!result.ok && result.stepUp) return { error: stepUpRefusal(session) };
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  return redirect('/admin/network?notice=revoked');
}

export default function NetworkKeyRevoke() {
  const { name, prefix } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <ConfirmPage
      title={k.revokeTitle}
      error={data?.error}
      pageClass="apikeys"
      textClass="apikeys-confirm"
      cancelTo="/admin/network"
      cancelLabel={k.cancel}
      confirmLabel={k.revokeYes}
    >
      {k.revokeConfirm(name, prefix)}
    </ConfirmPage>
  );
}
