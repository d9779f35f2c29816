// /usage: the company's usage for a chosen period, per day or month, by plan or by country (a GET form: all of it in
// the address, works without JS), with the same rows as CSV and XLSX (usage.csv, usage.xlsx). A bad period is shown
// next to its field, the rest of the page as it would be for this month.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { Field } from '#app/components/Field.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { CompanyUsageTable, type UsageTableRow } from '#app/components/usage/CompanyUsageTable.tsx';
import { DayChart } from '#app/components/usage/DayChart.tsx';
import usageStyles from '#app/styles/usage.css?url';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { requireUser } from '#app/utils/auth.server.ts';
import { procedureProblem } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { t } from '#domain/texts/common.ts';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';
import { formatBytes } from '#domain/usage/format.ts';
import { pageGroupOf, type PageGroup } from '#domain/usage/groups.ts';

const u = tCompanyUsage;
export const ErrorBoundary = routeErrorBoundary(u.title);
export const meta: MetaFunction = () => [{ title: `${u.title} – ${t.appName}` }];
// The chart's styles (DayChart), as the SIM page links them.
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: usageStyles }];

type Query = { from: string; to: string; granularity: 'day' | 'month'; groupBy: PageGroup };

/** The form's values from the address: an unknown grouping or granularity is the default, a period as typed. */
function queryOf(url: URL): Query {
  const p = url.searchParams;
  return {
    from: (p.get('from') ?? '').slice(0, 40),
    to: (p.get('to') ?? '').slice(0, 40),
    granularity: p.get('granularity') === 'month' ? 'month' : 'day',
    groupBy: pageGroupOf(p.get('groupBy')),
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const query = queryOf(new URL(request.url));
  const read = (q: Query) =>
    context.trpc.usage.page({
      groupBy: q.groupBy,
      granularity: q.granularity,
      from: q.from || undefined,
      to: q.to || undefined,
    });
  let errors: Record<string, string> | null = null;
  let page;
  try {
    page = await read(query);
  } catch (err) {
    const problem = procedureProblem(err);
    if (problem?.code !== 'BAD_REQUEST') throw err;
    // The period refused: its message next to its field, this month's rows below.
    errors = Object.keys(problem.fields).length ? problem.fields : { from: problem.message };
    page = await read({ ...query, from: '', to: '' });
  }
  const rows: UsageTableRow[] = page.rows.map((r) => ({
    period: r.period,
    label:
      query.groupBy === 'plan'
        ? `${r.ratePlanDescription ?? ''} (${r.ratePlanCode ?? ''})`
        : query.groupBy === 'tag'
          ? (r.tag ?? '')
          : (r.country ?? u.unknownCountry),
    up: formatBytes(r.bytesUp),
    down: formatBytes(r.bytesDown),
    total: formatBytes(r.bytes),
  }));
  const sum = page.rows.reduce((s, r) => s + r.bytes, 0);
  const files = new URLSearchParams({
    from: page.firstDay,
    to: page.lastDay,
    granularity: query.granularity,
    groupBy: query.groupBy,
  });
  return {
    companyName: session.companyName,
    query: errors ? query : { ...query, from: page.firstDay, to: page.lastDay },
    errors,
    rows,
    cut: page.cut,
    // By tag the rows overlap (a SIM with two tags counts under each): no sum, and the note says why.
    total: query.groupBy === 'tag' ? null : formatBytes(sum),
    firstDay: page.firstDay,
    lastDay: page.lastDay,
    asOf: page.asOf ? formatDateTime(page.asOf) : null,
    files: files.toString(),
    days: page.days,
  };
}

export default function Usage() {
  const { companyName, query, errors, rows, cut, total, firstDay, lastDay, asOf, files, days } =
    useLoaderData<typeof loader>();
  const f = u.form;
  return (
    <div className="company-usage">
      <h1>{u.title}</h1>
      <p className="muted subtitle">
        {companyName}. {u.intro} {asOf ? u.asOf(asOf) : u.noData}
      </p>
      <ErrorSummary errors={errors} idPrefix="usage-" />
      <Form method="get" className="usage-form" key={JSON.stringify(query)}>
        <fieldset>
          <legend className="visually-hidden">{f.legend}</legend>
          <Field id="usage-from" label={f.from} error={errors?.from}>
            {(aria) => <input {...aria} name="from" type="date" defaultValue={query.from} />}
          </Field>
          <Field id="usage-to" label={f.to} error={errors?.to}>
            {(aria) => <input {...aria} name="to" type="date" defaultValue={query.to} />}
          </Field>
          <Field id="usage-granularity" label={f.granularity}>
            {(aria) => (
              <select {...aria} name="granularity" defaultValue={query.granularity}>
                <option value="day">{u.granularity.day}</option>
                <option value="month">{u.granularity.month}</option>
              </select>
            )}
          </Field>
          <Field id="usage-groupBy" label={f.groupBy}>
            {(aria) => (
              <select {...aria} name="groupBy" defaultValue={query.groupBy}>
                <option value="plan">{u.groupBy.plan}</option>
                <option value="country">{u.groupBy.country}</option>
                <option value="tag">{u.groupBy.tag}</option>
              </select>
            )}
          </Field>
          <button className="btn btn-primary" type="submit">
            {f.show}
          </button>
        </fieldset>
      </Form>
      <p className="usage-downloads">
        <span>{u.download}:</span> <a href={`/usage.csv?${files}`}>{u.csv}</a>{' '}
        <a href={`/usage.xlsx?${files}`}>{u.xlsx}</a>
      </p>
      {rows.length > 0 && days.length > 1 && query.groupBy !== 'tag' ? (
        <DayChart id="usage-chart" days={days} labels={u.chart} />
      ) : null}
      {rows.length === 0 ? (
        <EmptyState>{u.empty}</EmptyState>
      ) : (
        <CompanyUsageTable
          caption={u.tableCaption(firstDay, lastDay)}
          periodLabel={query.granularity === 'month' ? u.columns.month : u.columns.day}
          keyLabel={u.columns[query.groupBy]}
          rows={rows}
          total={total}
          cut={cut}
        />
      )}
      {rows.length > 0 && query.groupBy === 'tag' ? <p className="muted">{u.tagNote}</p> : null}
    </div>
  );
}
