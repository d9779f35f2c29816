// /admin/companies: search (?q=), a server-rendered paginated table and the add form.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { AdminTable, Pager, pageParam, queryParam, SearchForm } from '#app/components/AdminList.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { constraints, fieldConstraint, withinLimits } from '#app/utils/constraints.ts';
import { createCompanyInput, listQuery } from '#domain/companies/schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const PAGE_SIZE = 20;

export const ErrorBoundary = routeErrorBoundary(tAdmin.companies.title);

export const meta: MetaFunction = () => [{ title: `${tAdmin.companies.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const url = new URL(request.url);
  const q = queryParam(url);
  const page = pageParam(url);
  const rows = await context.trpc.admin.getCompanies({
    q: q || undefined,
    limit: PAGE_SIZE + 1,
    offset: (page - 1) * PAGE_SIZE,
  });
  const createdId = Number(url.searchParams.get('created'));
  return {
    q,
    page,
    companies: rows.slice(0, PAGE_SIZE),
    hasNext: rows.length > PAGE_SIZE,
    createdId: Number.isInteger(createdId) && createdId > 0 ? createdId : null,
    fields: constraints(createCompanyInput),
    search: fieldConstraint(listQuery.q),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const form = await request.formData();
  const values = {
    name: formText(form, 'name'),
    customerNumber: formText(form, 'customerNumber'),
    invoiceNote: formText(form, 'invoiceNote'),
  };
  const result = await attempt(() => context.trpc.admin.createCompany(values));
  if (!result.ok) return { values: withinLimits(values, constraints(createCompanyInput)), errors: result.fields };
  return redirect(`/admin/companies?created=${result.value.newCompany.id}`);
}

export default function Companies() {
  const { q, page, companies, hasNext, createdId, fields, search } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const errors: Record<string, string | undefined> = data?.errors ?? {};
  return (
    <div className="admin">
      <h1>{tAdmin.companies.title}</h1>
      {createdId && !data ? (
        <Notice kind="success" role="status">
          {tAdmin.companies.created}. <Link to={`/admin/companies/${createdId}`}>{tAdmin.companies.openCreated}</Link>
        </Notice>
      ) : null}

      <SearchForm
        id="company-search"
        label={tAdmin.companies.search}
        hint={tAdmin.companies.searchHint}
        q={q}
        constraint={search}
      />

      <AdminTable
        caption={tAdmin.companies.title}
        empty={q ? tAdmin.companies.noneFor(q) : tAdmin.companies.none}
        columns={[
          { header: tAdmin.companies.name },
          { header: tAdmin.companies.customerNumber, wide: true },
          { header: tAdmin.companies.invoiceNote, wide: true },
        ]}
        rows={companies}
        cells={(c) => [
          <>
            <Truncated text={c.name} max={30} />
            {/* Cut to 30 characters (SPEC). On a phone the customer number and the invoice mark are folded in under
                the name, which so has the row's width: no word broken inside ("superadministrat/örer"). */}
            <span className="only-mobile cell-sub">
              <span className="visually-hidden">{tAdmin.companies.customerNumber} </span>
              <Truncated text={c.customerNumber} max={20} />
            </span>
            {c.invoiceNote ? (
              <span className="only-mobile cell-sub">
                <Truncated text={c.invoiceNote} max={30} />
              </span>
            ) : null}
          </>,
          <Truncated key="customerNumber" text={c.customerNumber} max={20} />,
          <Truncated key="invoiceNote" text={c.invoiceNote} max={30} />,
        ]}
        edit={(c) => ({ to: `/admin/companies/${c.id}`, label: tAdmin.editLabel(c.name) })}
      />
      <Pager
        q={q}
        page={page}
        hasNext={hasNext}
        shown={companies.length}
        pageSize={PAGE_SIZE}
        label={tAdmin.companies.title}
      />

      <section className="card" aria-labelledby="add-company-title">
        <h2 id="add-company-title">{tAdmin.companies.addTitle}</h2>
        <ErrorSummary
          errors={data ? errors : null}
          idPrefix="company-"
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        <Form method="post" key={createdId ?? 'new'} noValidate>
          <input type="hidden" name="intent" value="createCompany" />
          <TextField
            id="company-name"
            name="name"
            label={tAdmin.companies.name}
            {...fields.name}
            autoComplete="organization"
            defaultValue={data?.values.name}
            error={errors.name}
          />
          <TextField
            id="company-customerNumber"
            name="customerNumber"
            label={tAdmin.companies.customerNumber}
            {...fields.customerNumber}
            autoComplete="off"
            defaultValue={data?.values.customerNumber}
            error={errors.customerNumber}
          />
          <TextField
            id="company-invoiceNote"
            name="invoiceNote"
            label={tAdmin.companies.invoiceNote}
            {...fields.invoiceNote}
            autoComplete="off"
            defaultValue={data?.values.invoiceNote}
            error={errors.invoiceNote}
            hint={tAdmin.companies.intervalHint}
          />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {tAdmin.companies.add}
          </button>
        </Form>
      </section>
    </div>
  );
}
