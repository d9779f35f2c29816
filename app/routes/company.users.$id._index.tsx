// /company/users/{id}: the owner edits a user of their company (name, e-mail, role), or goes on to remove them.
// The last owner cannot be demoted: the refusal is shown next to the role.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { RoleField } from '#app/components/RoleField.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { attempt, formText, idParam, pageError } from '#app/utils/forms.server.ts';
import { companyUserUpdateInput } from '#domain/companies/owner-schemas.ts';
import type { UserRole } from '#domain/companies/kinds.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { draftOf } from '#app/utils/step-up.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';

const c = tCompany;

export const ErrorBoundary = routeErrorBoundary(c.editTitle);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.name ?? c.editTitle} – ${t.appName}` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const id = idParam(params.id);
  try {
    const user = await context.trpc.company.user({ id });
    const url = new URL(request.url);
    // A change refused for want of a step-up comes back with its values (app/utils/step-up.ts).
    const draft = draftOf(url, ['name', 'email', 'role'] as const);
    const wanted = stepUpWanted(session);
    return {
      user,
      draft,
      stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
      saved: url.searchParams.get('notice') === 'saved',
      fields: constraints(companyUserUpdateInput),
    };
  } catch (e) {
    pageError(e);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const form = await request.formData();
  const values = { name: formText(form, 'name'), email: formText(form, 'email'), role: formText(form, 'role') };
  // The procedure parses the role like every other field (an unknown one is refused next to the select).
  const result = await attempt(() => context.trpc.company.updateUser({ id, ...values, role: values.role as UserRole }));
  if (!result.ok && result.stepUp) return stepUpRedirect(`/company/users/${id}`, values);
  if (!result.ok) return { values: withinLimits(values, constraints(companyUserUpdateInput)), errors: result.fields };
  return redirect(`/company/users/${id}?notice=saved`);
}

export default function CompanyUserEdit() {
  const { user, saved, fields, draft, stepUpNotice } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const v = data?.values ?? (draft ? { ...draft, role: draft.role as UserRole } : user);
  const e: Record<string, string | undefined> = data?.errors ?? {};
  return (
    <div className="admin company-admin">
      <h1>{c.editTitle}</h1>
      {saved && !data ? (
        <Notice kind="success" role="status">
          {c.saved}
        </Notice>
      ) : null}
      {stepUpNotice && !data ? (
        <Notice kind="warning" role="alert" className="step-up-refused">
          {stepUpNotice}
        </Notice>
      ) : null}
      <ErrorSummary
        errors={data ? e : null}
        idPrefix="company-user-"
        lead={tAdmin.failedReason}
        formTitle={tAdmin.failed}
      />
      <Form method="post" className="card" key={[user.name, user.email, user.role].join('|')} noValidate>
        <TextField
          id="company-user-name"
          name="name"
          label={c.name}
          {...fields.name}
          autoComplete="off"
          defaultValue={v.name}
          error={e.name}
        />
        <TextField
          id="company-user-email"
          name="email"
          label={c.email}
          type="email"
          {...fields.email}
          autoComplete="off"
          defaultValue={v.email}
          error={e.email}
        />
        <RoleField id="company-user-role" value={v.role} error={e.role} />
        <div className="actions">
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {c.save}
          </button>
          <Link className="btn btn-destructive" to={`/company/users/${user.id}/remove`}>
            {c.remove}
          </Link>
        </div>
      </Form>
    </div>
  );
}
