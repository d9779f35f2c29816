// /company/webhooks/{id}/delete: the confirm page (JS or not) before an owner deletes a webhook endpoint.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ConfirmPage } from '#app/components/ConfirmPage.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { t } from '#domain/texts/common.ts';
import { tWebhooks } from '#domain/texts/webhooks.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { attempt, idParam } from '#app/utils/forms.server.ts';

const w = tWebhooks;

export const ErrorBoundary = routeErrorBoundary(w.deleteTitle);

export const meta: MetaFunction = () => [{ title: `${w.deleteTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const ep = (await context.trpc.webhooks.list({})).find((e) => e.id === id);
  if (!ep) throw new Response('Not Found', { status: 404 });
  return { id: ep.id, url: ep.url };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const result = await attempt(() => context.trpc.webhooks.delete({ id }));
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  return redirect('/company/webhooks?notice=deleted');
}

export default function CompanyWebhookDelete() {
  const { url } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <ConfirmPage
      title={w.deleteTitle}
      error={data?.error}
      textClass="company-confirm webhooks-url"
      cancelTo="/company/webhooks"
      cancelLabel={w.cancel}
      confirmLabel={w.delete}
    >
      <Truncated text={w.deleteConfirm(url)} max={200} />
    </ConfirmPage>
  );
}
