// /admin/audit: the super admin's audit log: every company's trail and the staff's own rows, newest first, filtered
// by company (its customer number) and kind with a GET form, paged by keyset (?before= the last id of the page before).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { TextField } from '#app/components/TextField.tsx';
import { ActivityTable, KeysetPager } from '#app/components/ActivityTable.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { tCompany } from '#domain/texts/company.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { fieldConstraint } from '#app/utils/constraints.ts';
import { attempt } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { AUDIT_KINDS, type AuditKind } from '#domain/companies/kinds.ts';
import { auditTrailQuery } from '#domain/companies/owner-schemas.ts';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';

const PAGE_SIZE = 50;
const a = tAdmin.audit;
/** A company's name is shown up to this many characters (the whole name in its title). */
const NAME_MAX = 30;

export const ErrorBoundary = routeErrorBoundary(a.title);

export const meta: MetaFunction = () => [{ title: `${a.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const url = new URL(request.url);
  const rawKind = url.searchParams.get('kind') ?? '';
  // An unknown kind or page mark (an old or edited link) is the newest page of everything.
  const kind = AUDIT_KINDS.includes(rawKind as AuditKind) ? (rawKind as AuditKind) : undefined;
  const rawBefore = url.searchParams.get('before') ?? '';
  const before = /^[1-9]\d{0,9}$/.test(rawBefore) ? Number(rawBefore) : undefined;
  const company = (url.searchParams.get('company') ?? '').trim();
  const result = await attempt(() =>
    context.trpc.admin.audit({ customerNumber: company || undefined, kind, before, limit: PAGE_SIZE }),
  );
  const page = result.ok ? result.value : { items: [], nextBefore: null, company: null };
  return {
    company,
    kind: kind ?? '',
    older: before !== undefined,
    error: result.ok ? undefined : (result.fields.customerNumber ?? Object.values(result.fields)[0]),
    found: page.company,
    nextBefore: page.nextBefore,
    items: page.items.map((i) => ({ ...i, when: formatDateTime(i.at) })),
    field: fieldConstraint(auditTrailQuery.shape.customerNumber),
  };
}

export default function AdminAudit() {
  const { company, kind, older, error, found, nextBefore, items, field } = useLoaderData<typeof loader>();
  const query = (params: Record<string, string>) => {
    const p = new URLSearchParams();
    if (params.company ?? company) p.set('company', params.company ?? company);
    if (params.kind ?? kind) p.set('kind', params.kind ?? kind);
    if (params.before) p.set('before', params.before);
    const s = p.toString();
    return `/admin/audit${s ? `?${s}` : ''}`;
  };
  const filtered = Boolean(company || kind);
  return (
    <div className="admin admin-audit">
      <h1>{a.title}</h1>
      <p className="muted subtitle">{a.intro}</p>
      <ErrorSummary errors={error ? { company: error } : null} idPrefix="audit-" />
      <Form method="get" className="audit-filter" key={`${company}|${kind}`} noValidate>
        <TextField
          id="audit-company"
          name="company"
          label={a.customerNumber}
          hint={a.customerNumberHint}
          error={error}
          defaultValue={company}
          autoComplete="off"
          {...field}
        />
        <div className="field">
          <label htmlFor="audit-kind">{a.kind}</label>
          <select id="audit-kind" name="kind" defaultValue={kind}>
            <option value="">{a.allKinds}</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {tCompany.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="audit-filter-actions">
          <button className="btn btn-primary" type="submit">
            {a.filter}
          </button>
          {filtered ? <Link to="/admin/audit">{a.clear}</Link> : null}
        </div>
      </Form>
      {found ? (
        <p className="muted" role="status">
          {a.showing(found.name, found.customerNumber)}
        </p>
      ) : null}
      {items.length === 0 ? (
        <EmptyState>{filtered || error ? a.noneFiltered : a.none}</EmptyState>
      ) : (
        <ActivityTable
          caption={a.title}
          labels={a}
          items={items}
          className="admin-audit-table"
          company={{
            header: a.company,
            cell: (i) =>
              i.company ? (
                <Link
                  to={query({ company: i.company.customerNumber, before: '' })}
                  aria-label={a.filterByCompany(i.company.name)}
                >
                  <Truncated text={i.company.name} max={NAME_MAX} />
                </Link>
              ) : (
                a.noCompany
              ),
          }}
        />
      )}
      <KeysetPager
        label={a.title}
        newest={older ? query({}) : null}
        older={nextBefore ? query({ before: String(nextBefore) }) : null}
      />
    </div>
  );
}
