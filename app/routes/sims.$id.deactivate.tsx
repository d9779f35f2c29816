// Deactivate a SIM. Without JS the button on the edit page leads here: the same texts and a POST form.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { listFrom, listHref, withList } from '#app/sims/list-return.ts';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { requireWriter } from '#app/utils/auth.server.ts';
import { attempt, idParam, pageError } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export const ErrorBoundary = routeErrorBoundary(t.sims.confirmTitle);

export const meta: MetaFunction = () => [{ title: `${t.sims.confirmTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireWriter(request, context);
  try {
    const sim = await context.trpc.sim.byId({ id: idParam(params.id) });
    return { id: sim.id, iccid: sim.iccid, list: listFrom(new URL(request.url).searchParams) };
  } catch (e) {
    pageError(e);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireWriter(request, context);
  const id = idParam(params.id);
  const result = await attempt(() => context.trpc.sim.deactivate({ id }));
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  await context.ctx.showToasts({ flash: true });
  // Back to the list as the user left it (its search and page), not the whole fleet.
  return redirect(listHref(listFrom(new URL(request.url).searchParams)), { headers: procedureHeaders(context) });
}

export default function ConfirmDeactivate() {
  const { id, iccid, list } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <>
      <h1>{t.sims.confirmTitle}</h1>
      {data?.error ? (
        <Notice kind="error" role="alert">
          {data.error}
        </Notice>
      ) : null}
      <div className="card">
        <p>{t.sims.confirmText}</p>
        <p className="readonly-value">{iccid}</p>
        <Form method="post" action={withList(`/sims/${id}/deactivate`, list)} className="actions">
          <Link className="btn" to={withList(`/sims/${id}`, list)}>
            {t.sims.cancel}
          </Link>
          <button className="btn btn-destructive" type="submit">
            {t.sims.continue}
          </button>
        </Form>
      </div>
    </>
  );
}
