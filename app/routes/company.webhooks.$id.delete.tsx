// /company/webhooks/{id}/delete: the confirm page (JS or not) before an owner deletes a webhook endpoint.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { routeErrorBoundary } from '~/components/RouteError';
import { Truncated } from '~/components/Truncated';
import { t } from '~/texts';
import { requireOwner } from '~/utils/auth.server';
import { attempt, idParam } from '~/utils/forms.server';

const w = t.webhooks;

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
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="admin company-admin">
      <h1>{w.deleteTitle}</h1>
      {data?.error ? (
        <p className="notice error" role="alert">
          {data.error}
        </p>
      ) : null}
      <div className="card">
        <p className="company-confirm webhooks-url">
          <Truncated text={w.deleteConfirm(url)} max={200} />
        </p>
        <Form method="post" className="actions">
          <Link className="btn" to="/company/webhooks">
            {w.cancel}
          </Link>
          <button className="btn btn-destructive" type="submit" disabled={busy}>
            {w.delete}
          </button>
        </Form>
      </div>
    </div>
  );
}
