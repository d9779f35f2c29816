// /admin/companies/{companyId}/{userId}: edit a user of that company (name, e-mail, role, super admin).
// The role is the same select as the owner's /company pages; isCompanyOwner is posted as `role = owner`.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { RoleField } from '#app/components/RoleField.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { FORM_ERROR, formFlag } from '#app/utils/forms.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { attempt, formText, idParam } from '#app/utils/forms.server.ts';
import { USER_ROLES, type UserRole } from '#domain/companies/kinds.ts';
import { updateUserInput } from '#domain/companies/user-schemas.ts';

export const ErrorBoundary = routeErrorBoundary(tAdmin.user.title);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.user.name ?? tAdmin.user.title} – ${t.appName}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  const id = idParam(params.userId);
  // The company in the URL must be the user's: another company's user is "not found" here.
  const found = await attempt(() => context.trpc.admin.getUser({ id, companyId }));
  if (!found.ok) throw new Response('Not Found', { status: 404 });
  return {
    user: found.value,
    updated: new URL(request.url).searchParams.get('notice') === 'updated',
    fields: constraints(updateUserInput),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const companyId = idParam(params.companyId);
  const id = idParam(params.userId);
  const form = await request.formData();
  const values = {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    role: formText(form, 'role'),
    isSuperAdmin: formFlag(form, 'isSuperAdmin'),
  };
  // The procedure parses the role like every other field (an unknown one is refused next to the select).
  const role = values.role as UserRole;
  const result = await attempt(() =>
    context.trpc.admin.updateUser({ id, companyId, ...values, role, isCompanyOwner: role === 'owner' }),
  );
  if (!result.ok) return { values: withinLimits(values, constraints(updateUserInput)), errors: result.fields };
  return redirect(`/admin/companies/${companyId}/${id}?notice=updated`);
}

export default function UserEdit() {
  const { user, updated, fields } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const v = data?.values ?? user;
  // A posted role that is none of the three (a hand-made post) shows the saved one, not the select's first.
  const role = (USER_ROLES as readonly string[]).includes(v.role) ? v.role : user.role;
  const e: Record<string, string | undefined> = data?.errors ?? {};
  return (
    <div className="admin">
      <h1>{tAdmin.user.title}</h1>
      {updated && !data ? (
        <p className="notice success" role="status">
          {tAdmin.user.updated}
        </p>
      ) : null}
      {data ? (
        <p className="notice error" role="alert">
          {failure(e)}
        </p>
      ) : null}
      <Form method="post" className="card" key={[user.name, user.email, user.role, user.isSuperAdmin].join('|')}>
        <input type="hidden" name="intent" value="updateUser" />
        <TextField
          id="user-name"
          name="name"
          label={tAdmin.user.name}
          {...fields.name}
          autoComplete="off"
          defaultValue={v.name}
          error={e.name}
        />
        <TextField
          id="user-email"
          name="email"
          label={tAdmin.user.email}
          type="email"
          {...fields.email}
          autoComplete="off"
          defaultValue={v.email}
          error={e.email}
        />
        <RoleField id="user-role" value={role} error={e.role ?? e.isCompanyOwner} />
        <Check
          id="user-isSuperAdmin"
          name="isSuperAdmin"
          label={tAdmin.user.isSuperAdmin}
          checked={v.isSuperAdmin}
          error={e.isSuperAdmin}
          hint={tAdmin.user.isSuperAdminHint}
        />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {tAdmin.save}
        </button>
      </Form>
    </div>
  );
}

function Check({
  id,
  name,
  label,
  checked,
  error,
  hint,
}: {
  id: string;
  name: string;
  label: string;
  checked: boolean;
  error?: string;
  hint?: string;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="check-field">
      <div className="check">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** "Något gick fel" with the reason: next to the fields, or here when the refusal names no field. */
function failure(errors: Record<string, string | undefined>) {
  return errors[FORM_ERROR] ? `${tAdmin.failed}: ${errors[FORM_ERROR]}` : tAdmin.failedReason;
}
