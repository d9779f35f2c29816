// /company/rules/{id}/delete: the confirm page (JS or not) before an owner deletes a rule (issue 40).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ConfirmPage } from '#app/components/ConfirmPage.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { t } from '#domain/texts/common.ts';
import { tRules } from '#domain/texts/rules.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { attempt, idParam } from '#app/utils/forms.server.ts';

const r = tRules;

export const ErrorBoundary = routeErrorBoundary(r.deleteTitle);

export const meta: MetaFunction = () => [{ title: `${r.deleteTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const rule = (await context.trpc.rules.list({})).find((x) => x.id === id);
  if (!rule) throw new Response('Not Found', { status: 404 });
  return { id: rule.id, name: rule.name };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const result = await attempt(() => context.trpc.rules.delete({ id }));
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  return redirect('/company/rules?notice=deleted');
}

export default function CompanyRuleDelete() {
  const { name } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <ConfirmPage
      title={r.deleteTitle}
      error={data?.error}
      textClass="company-confirm"
      cancelTo="/company/rules"
      cancelLabel={r.cancel}
      confirmLabel={r.delete}
    >
      <Truncated text={r.deleteConfirm(name)} max={200} />
    </ConfirmPage>
  );
}
