// Long: three forms of one page (the company, its users' search, a new user) on one loader and action.
// /admin/companies/{companyId}: edit the company, log in as it, search its users, add a user.
// Three forms on one page, told apart by a hidden `intent`.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { tSecurity } from '#domain/texts/security.ts';
import { AdminTable, Pager, pageParam, queryParam, SearchForm } from '#app/components/AdminList.tsx';
import { RoleField } from '#app/components/RoleField.tsx';
import { RoleCell, roleColumn } from '#app/components/ui/RoleCell.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { attempt, formText, idParam } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { constraints, fieldConstraint, withinLimits } from '#app/utils/constraints.ts';
import { companyFields, INVOICE_INTERVALS, listQuery, updateCompanyInput } from '#domain/companies/schemas.ts';
import { USER_ROLES, type UserRole } from '#domain/companies/kinds.ts';
import { createUserInput } from '#domain/companies/user-schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const PAGE_SIZE = 20;

export const ErrorBoundary = routeErrorBoundary(tAdmin.company.title);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.company.name ?? tAdmin.company.title} – ${t.appName}` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const id = idParam(params.companyId);
  const url = new URL(request.url);
  const q = queryParam(url);
  const page = pageParam(url);
  const found = await attempt(() =>
    context.trpc.admin.getCompany({ id, q: q || undefined, limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE }),
  );
  if (!found.ok) throw new Response('Not Found', { status: 404 });
  const { users, ...company } = found.value;
  const notice = url.searchParams.get('notice');
  const createdUser = Number(url.searchParams.get('user'));
  return {
    company,
    users: users.slice(0, PAGE_SIZE),
    hasNext: users.length > PAGE_SIZE,
    q,
    page,
    notice: notice === 'updated' || notice === 'userCreated' ? notice : null,
    createdUserId: Number.isInteger(createdUser) && createdUser > 0 ? createdUser : null,
    form: {
      company: constraints(updateCompanyInput),
      user: constraints(createUserInput),
      search: fieldConstraint(listQuery.q),
      intervals: INVOICE_INTERVALS,
    },
  };
}

type CompanyValues = { name: string; customerNumber: string; invoiceNote: string; invoiceInterval: string };
type UserValues = { name: string; email: string; role: string };
type ActionData =
  | { intent: 'updateCompany'; values: CompanyValues; errors: Record<string, string> }
  | { intent: 'createUser'; values: UserValues; errors: Record<string, string> }
  | { intent: 'loginAs'; errors: Record<string, string> };

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const id = idParam(params.companyId);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent === 'loginAs') {
    const result = await attempt(() => context.trpc.admin.loginAsCompany({ companyId: id }));
    if (!result.ok) return { intent, errors: result.fields } satisfies ActionData;
    return redirect('/', { headers: procedureHeaders(context) });
  }
  if (intent === 'createUser') {
    const values: UserValues = {
      name: formText(form, 'name'),
      email: formText(form, 'email'),
      role: formText(form, 'role'),
    };
    // The procedure parses the role like every other field (an unknown one is refused next to the select).
    const result = await attempt(() =>
      context.trpc.admin.createUser({ ...values, role: values.role as UserRole, companyId: id }),
    );
    if (!result.ok)
      return {
        intent,
        values: withinLimits(values, constraints(createUserInput)),
        errors: result.fields,
      } satisfies ActionData;
    return redirect(`/admin/companies/${id}?notice=userCreated&user=${result.value.newUser.id}`);
  }
  if (intent === 'updateCompany') {
    const values: CompanyValues = {
      name: formText(form, 'name'),
      customerNumber: formText(form, 'customerNumber'),
      invoiceNote: formText(form, 'invoiceNote'),
      invoiceInterval: formText(form, 'invoiceInterval'),
    };
    // A select posts one of its options; anything else is refused in the schema's words.
    const interval = companyFields.invoiceInterval.safeParse(values.invoiceInterval);
    if (!interval.success)
      return {
        intent,
        values,
        errors: { invoiceInterval: interval.error.issues[0]?.message ?? t.errors.byCode.BAD_REQUEST },
      } satisfies ActionData;
    const result = await attempt(() =>
      context.trpc.admin.updateCompany({ id, ...values, invoiceInterval: interval.data }),
    );
    if (!result.ok)
      return {
        intent,
        values: withinLimits(values, constraints(updateCompanyInput)),
        errors: result.fields,
      } satisfies ActionData;
    return redirect(`/admin/companies/${id}?notice=updated`);
  }
  throw new Response('Bad Request', { status: 400 });
}

export default function CompanyEdit() {
  const { company, users, hasNext, q, page, notice, createdUserId, form } = useLoaderData<typeof loader>();
  const { company: companyConstraints, user: userConstraints } = form;
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const companyData = data?.intent === 'updateCompany' ? data : null;
  const userData = data?.intent === 'createUser' ? data : null;
  const ce: Record<string, string | undefined> = companyData?.errors ?? {};
  const ue: Record<string, string | undefined> = userData?.errors ?? {};
  const cv = companyData?.values ?? company;
  // A new user is a member unless chosen otherwise; a posted role that is none of the three shows as member.
  const postedRole = userData?.values.role ?? '';
  const role = (USER_ROLES as readonly string[]).includes(postedRole) ? postedRole : 'member';
  return (
    <div className="admin">
      <h1>{tAdmin.company.title}</h1>
      <p className="muted subtitle">
        {company.name} ({company.customerNumber})
      </p>
      {notice === 'updated' && !data ? (
        <Notice kind="success" role="status">
          {tAdmin.companies.updated}
        </Notice>
      ) : null}
      {notice === 'userCreated' && !data ? (
        <Notice kind="success" role="status">
          {tAdmin.user.created}.{' '}
          {createdUserId ? (
            <Link to={`/admin/companies/${company.id}/${createdUserId}`}>{tAdmin.user.openCreated}</Link>
          ) : null}
        </Notice>
      ) : null}

      <section className="card" aria-labelledby="company-form-title">
        <h2 id="company-form-title" className="visually-hidden">
          {tAdmin.company.title}
        </h2>
        <ErrorSummary
          errors={companyData ? ce : null}
          id="company-errors"
          idPrefix="company-"
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        <Form
          method="post"
          key={[company.name, company.customerNumber, company.invoiceNote, company.invoiceInterval].join('|')}
          noValidate
        >
          <input type="hidden" name="intent" value="updateCompany" />
          <TextField
            id="company-name"
            name="name"
            label={tAdmin.companies.name}
            {...companyConstraints.name}
            autoComplete="organization"
            defaultValue={cv.name}
            error={ce.name}
          />
          <TextField
            id="company-customerNumber"
            name="customerNumber"
            label={tAdmin.companies.customerNumber}
            {...companyConstraints.customerNumber}
            autoComplete="off"
            defaultValue={cv.customerNumber}
            error={ce.customerNumber}
          />
          <TextField
            id="company-invoiceNote"
            name="invoiceNote"
            label={tAdmin.companies.invoiceNote}
            {...companyConstraints.invoiceNote}
            autoComplete="off"
            defaultValue={cv.invoiceNote}
            error={ce.invoiceNote}
          />
          <div className="field">
            <label htmlFor="company-invoiceInterval">{tAdmin.companies.invoiceInterval}</label>
            <select
              id="company-invoiceInterval"
              name="invoiceInterval"
              {...companyConstraints.invoiceInterval}
              defaultValue={cv.invoiceInterval}
              aria-invalid={ce.invoiceInterval ? true : undefined}
              aria-describedby={ce.invoiceInterval ? 'company-invoiceInterval-error' : undefined}
            >
              {form.intervals.map((i) => (
                <option key={i} value={i}>
                  {tAdmin.intervals[i]}
                </option>
              ))}
            </select>
            {ce.invoiceInterval ? (
              <p id="company-invoiceInterval-error" className="error">
                {ce.invoiceInterval}
              </p>
            ) : null}
          </div>
          <button className="btn btn-primary" type="submit" disabled={pendingIntent === 'updateCompany'}>
            {tAdmin.save}
          </button>
        </Form>
      </section>

      <Form method="post" className="login-as">
        <ErrorSummary
          errors={data?.intent === 'loginAs' ? data.errors : null}
          id="login-as-errors"
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        <input type="hidden" name="intent" value="loginAs" />
        <button className="btn" type="submit" aria-describedby="login-as-hint" disabled={pendingIntent === 'loginAs'}>
          {tAdmin.company.loginAs}
        </button>
        <p id="login-as-hint" className="muted">
          {tAdmin.company.loginAsHint}
        </p>
      </Form>
      <p className="link-line">
        <Link to={`/admin/audit?company=${encodeURIComponent(company.customerNumber)}`}>
          {tAdmin.audit.openCompanyAudit}
        </Link>
      </p>
      <p className="link-line">
        <Link to={`/admin/companies/${company.id}/sign-in`}>{tSecurity.sso.link}</Link>
      </p>

      <section aria-labelledby="users-title">
        <h2 id="users-title">{tAdmin.company.usersTitle}</h2>
        <SearchForm
          id="user-search"
          label={tAdmin.company.searchUsers}
          hint={tAdmin.company.searchUsersHint}
          q={q}
          constraint={form.search}
        />

        <div className="card add-user">
          <h3 id="add-user-title">{tAdmin.company.addUserTitle}</h3>
          <ErrorSummary
            errors={userData ? ue : null}
            id="add-user-errors"
            idPrefix="user-"
            lead={tAdmin.failedReason}
            formTitle={tAdmin.failed}
          />
          <Form
            method="post"
            className="inline-form adminrole-add"
            key={`user-${createdUserId ?? ''}`}
            aria-labelledby="add-user-title"
            noValidate
          >
            <input type="hidden" name="intent" value="createUser" />
            <TextField
              id="user-name"
              name="name"
              label={tAdmin.user.name}
              {...userConstraints.name}
              autoComplete="off"
              defaultValue={userData?.values.name}
              error={ue.name}
            />
            <TextField
              id="user-email"
              name="email"
              label={tAdmin.user.email}
              type="email"
              {...userConstraints.email}
              autoComplete="off"
              defaultValue={userData?.values.email}
              error={ue.email}
            />
            <div className="adminrole-role">
              <RoleField id="user-role" value={role} error={ue.role} />
            </div>
            <div className="inline-submit">
              <button className="btn btn-primary" type="submit" disabled={pendingIntent === 'createUser'}>
                {tAdmin.company.addUser}
              </button>
            </div>
          </Form>
        </div>

        <AdminTable
          caption={tAdmin.company.usersTitle}
          empty={q ? tAdmin.company.noUsersFor(q) : tAdmin.company.noUsers}
          columns={[{ header: tAdmin.user.name }, { header: tAdmin.user.email, wide: true }, roleColumn]}
          rows={users}
          cells={(u) => [
            // On a phone the e-mail column folds in under the name, so the role and "Redigera" stay on screen.
            <span key="name">
              <Truncated text={u.name} max={20} />
              <span className="only-mobile user-email-folded">
                <Truncated text={u.email} max={20} />
              </span>
            </span>,
            <Truncated key="email" text={u.email} max={20} />,
            <RoleCell key="role" role={u.role} isSuperAdmin={u.isSuperAdmin} />,
          ]}
          edit={(u) => ({ to: `/admin/companies/${company.id}/${u.id}`, label: tAdmin.editLabel(u.name) })}
        />
        <Pager
          q={q}
          page={page}
          hasNext={hasNext}
          shown={users.length}
          pageSize={PAGE_SIZE}
          label={tAdmin.company.usersTitle}
        />
      </section>
    </div>
  );
}
