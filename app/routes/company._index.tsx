// /company ("Mitt företag"), the owner's own admin: the company's users, searched and paged on the
// server, a form to add one (no mail is sent), and the links to edit a user and to the activity trail.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import { AdminTable, Pager, pageParam, queryParam, SearchForm } from '#app/components/AdminList.tsx';
import { RoleField } from '#app/components/RoleField.tsx';
import { RoleCell, roleColumn } from '#app/components/ui/RoleCell.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { constraints, fieldConstraint, withinLimits } from '#app/utils/constraints.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { listQuery } from '#domain/companies/schemas.ts';
import { companyUserCreateInput } from '#domain/companies/owner-schemas.ts';
import type { UserRole } from '#domain/companies/kinds.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { draftOf } from '#app/utils/step-up.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';

const PAGE_SIZE = 20;
const c = tCompany;

export const ErrorBoundary = routeErrorBoundary(c.title);

export const meta: MetaFunction = () => [{ title: `${c.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const url = new URL(request.url);
  const q = queryParam(url);
  const page = pageParam(url);
  const users = await context.trpc.company.users({
    q: q || undefined,
    limit: PAGE_SIZE + 1,
    offset: (page - 1) * PAGE_SIZE,
  });
  const notice = url.searchParams.get('notice');
  // A new user refused for want of a step-up comes back with what was typed (app/utils/step-up.ts).
  const draft = draftOf(url, ['name', 'email', 'role'] as const);
  const wanted = stepUpWanted(session);
  return {
    draft,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    companyName: session.companyName,
    me: session.userId,
    users: users.slice(0, PAGE_SIZE),
    hasNext: users.length > PAGE_SIZE,
    q,
    page,
    notice: notice === 'added' || notice === 'removed' ? notice : null,
    form: { user: constraints(companyUserCreateInput), search: fieldConstraint(listQuery.q) },
  };
}

type Values = { name: string; email: string; role: string };

export async function action({ request, context }: ActionFunctionArgs) {
  requireOwner(request, context);
  const form = await request.formData();
  const values: Values = { name: formText(form, 'name'), email: formText(form, 'email'), role: formText(form, 'role') };
  // The procedure parses the role like every other field (an unknown one is refused next to the select).
  const result = await attempt(() => context.trpc.company.createUser({ ...values, role: values.role as UserRole }));
  if (!result.ok && result.stepUp) return stepUpRedirect('/company', values);
  if (!result.ok) return { values: withinLimits(values, constraints(companyUserCreateInput)), errors: result.fields };
  return redirect('/company?notice=added');
}

export default function CompanyUsers() {
  const { companyName, me, users, hasNext, q, page, notice, form, draft, stepUpNotice } =
    useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const e: Record<string, string | undefined> = data?.errors ?? {};
  return (
    <div className="admin company-admin">
      <h1>{c.title}</h1>
      <p className="muted subtitle">{companyName}</p>
      <CompanyTabs />
      {notice && !data ? (
        <Notice kind="success" role="status">
          {notice === 'added' ? c.addedNotice : c.removedNotice}
        </Notice>
      ) : null}

      <section aria-labelledby="company-users-title">
        <h2 id="company-users-title">{c.usersTitle}</h2>
        <SearchForm id="company-user-search" label={c.search} hint={c.searchHint} q={q} constraint={form.search} />
        <AdminTable
          caption={c.usersTitle}
          empty={q ? c.noneFor(q) : c.none}
          columns={[{ header: c.name }, { header: c.email, wide: true }, roleColumn]}
          rows={users}
          cells={(u) => [
            <span key="name">
              <Truncated text={u.name} max={24} />
              {u.id === me ? <span className="muted"> {c.you}</span> : null}
              <span className="only-mobile company-email">
                <Truncated text={u.email} max={24} />
              </span>
            </span>,
            <Truncated key="email" text={u.email} max={30} />,
            <RoleCell key="role" role={u.role} />,
          ]}
          edit={(u) => ({ to: `/company/users/${u.id}`, label: tAdmin.editLabel(u.name) })}
        />
        <Pager q={q} page={page} hasNext={hasNext} shown={users.length} pageSize={PAGE_SIZE} label={c.usersTitle} />
      </section>

      <section className="card" aria-labelledby="company-add-title">
        <h2 id="company-add-title">{c.addTitle}</h2>
        <p className="muted">{c.addHint}</p>
        <ErrorSummary
          errors={data ? e : null}
          idPrefix="company-user-"
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        {stepUpNotice && !data ? (
          <Notice kind="warning" role="alert" className="step-up-refused">
            {stepUpNotice}
          </Notice>
        ) : null}
        <Form method="post" key={notice === 'added' ? 'added' : 'new'} noValidate>
          <TextField
            id="company-user-name"
            name="name"
            label={c.name}
            {...form.user.name}
            autoComplete="off"
            defaultValue={(data?.values ?? draft)?.name}
            error={e.name}
          />
          <TextField
            id="company-user-email"
            name="email"
            label={c.email}
            type="email"
            {...form.user.email}
            autoComplete="off"
            defaultValue={(data?.values ?? draft)?.email}
            error={e.email}
          />
          <RoleField id="company-user-role" value={(data?.values ?? draft)?.role || 'member'} error={e.role} />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {c.add}
          </button>
        </Form>
      </section>
    </div>
  );
}
