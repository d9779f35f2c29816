// /company/users/{id}/remove: the confirm page (JS or not) before an owner removes a user. The POST removes;
// the user's sessions and event streams end at once (after a step-up, as every change to users). The last owner
// is refused here, in words, and so is a missing step-up (the layout's prompt above offers it).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ConfirmPage } from '#app/components/ConfirmPage.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { attempt, idParam, pageError } from '#app/utils/forms.server.ts';
import { stepUpRefusal } from '#app/utils/step-up.server.ts';

const c = tCompany;

export const ErrorBoundary = routeErrorBoundary(c.removeTitle);

export const meta: MetaFunction = () => [{ title: `${c.removeTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireOwner(request, context);
  try {
    const user = await context.trpc.company.user({ id: idParam(params.id) });
    return { id: user.id, name: user.name, email: user.email };
  } catch (e) {
    pageError(e);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = requireOwner(request, context);
  const id = idParam(params.id);
  const result = await attempt(() => context.trpc.company.removeUser({ id }));
  // Wanting a step-up: the layout's prompt above says how; the question stays for after it.
  if (!result.ok && result.stepUp) return { error: stepUpRefusal(session) };
  if (!result.ok) return { error: Object.values(result.fields)[0] };
  // Removing oneself ends this session too: the login page is what is left.
  return redirect(id === session.userId ? '/login' : '/company?notice=removed');
}

export default function CompanyUserRemove() {
  const { id, name, email } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <ConfirmPage
      title={c.removeTitle}
      error={data?.error}
      textClass="company-confirm"
      cancelTo={`/company/users/${id}`}
      cancelLabel={c.cancel}
      confirmLabel={c.removeYes}
    >
      {c.removeConfirm(name, email)}
    </ConfirmPage>
  );
}
