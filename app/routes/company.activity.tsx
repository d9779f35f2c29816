// /company/activity: the company's audit trail, newest first, filtered by kind (a GET form), paged by keyset
// (?before= the last id of the page before), with the CSV export of what the filter shows.
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { ActivityTable, KeysetPager } from '#app/components/ActivityTable.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { AUDIT_KINDS, type AuditKind } from '#domain/companies/kinds.ts';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';

const PAGE_SIZE = 50;
const c = tCompany;

export const ErrorBoundary = routeErrorBoundary(c.activityTitle);

export const meta: MetaFunction = () => [{ title: `${c.activityTitle} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const url = new URL(request.url);
  const rawKind = url.searchParams.get('kind') ?? '';
  // An unknown kind or page mark (an old or edited link) is the newest page of everything.
  const kind = AUDIT_KINDS.includes(rawKind as AuditKind) ? (rawKind as AuditKind) : undefined;
  const rawBefore = url.searchParams.get('before') ?? '';
  const before = /^[1-9]\d{0,9}$/.test(rawBefore) ? Number(rawBefore) : undefined;
  const page = await context.trpc.company.audit({ kind, before, limit: PAGE_SIZE });
  return {
    companyName: session.companyName,
    kind: kind ?? '',
    older: before !== undefined,
    nextBefore: page.nextBefore,
    items: page.items.map((i) => ({ ...i, when: formatDateTime(i.at) })),
  };
}

export default function CompanyActivity() {
  const { companyName, kind, older, nextBefore, items } = useLoaderData<typeof loader>();
  const withKind = (params: Record<string, string>) => {
    const p = new URLSearchParams(kind ? { kind, ...params } : params);
    const s = p.toString();
    return s ? `?${s}` : '';
  };
  return (
    <div className="admin company-admin">
      <h1>{c.activityTitle}</h1>
      <CompanyTabs />
      <p className="muted subtitle">
        {companyName}. {c.activityIntro}
      </p>
      <Form method="get" className="company-filter" key={kind}>
        <div className="field">
          <label htmlFor="activity-kind">{c.kind}</label>
          <div className="search-row">
            <select id="activity-kind" name="kind" defaultValue={kind}>
              <option value="">{c.allKinds}</option>
              {AUDIT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {c.kinds[k]}
                </option>
              ))}
            </select>
            <button className="btn" type="submit">
              {c.filter}
            </button>
          </div>
        </div>
      </Form>
      <p>
        <a href={`/company/activity.csv${withKind({})}`} download>
          {c.exportCsv}
        </a>
      </p>
      {items.length === 0 ? (
        <EmptyState>{kind ? c.noActivityOfKind : c.noActivity}</EmptyState>
      ) : (
        <ActivityTable caption={c.activityTitle} labels={c} items={items} />
      )}
      <KeysetPager
        label={c.activityTitle}
        newest={older ? withKind({}) : null}
        older={nextBefore ? withKind({ before: String(nextBefore) }) : null}
      />
    </div>
  );
}
