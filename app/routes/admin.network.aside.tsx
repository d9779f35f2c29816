// /admin/network/aside ("Poster som lagts åt sidan"): the usage records of an ICCID that is no active SIM's, kept as
// they came, newest received first, paged by keyset (?before= the previous page's mark; an edited or old mark is the
// newest page, said above it). On a phone the source, record id and interval fold in under the ICCID.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { KeysetPager } from '#app/components/ActivityTable.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { attempt } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { grouped, t } from '#domain/texts/common.ts';
import { tNetwork } from '#domain/texts/network.ts';

const PAGE_SIZE = 50;
const a = tNetwork.aside;
const PATH = '/admin/network/aside';

// A table page: the wide column (app/components/page-width.ts).
export const handle = { width: 'wide' };

export const ErrorBoundary = routeErrorBoundary(a.title);

export const meta: MetaFunction = () => [{ title: `${a.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  const before = new URL(request.url).searchParams.get('before') || undefined;
  const asked = await attempt(() => context.trpc.networkKeys.aside({ before, limit: PAGE_SIZE }));
  const page = asked.ok ? asked.value : await context.trpc.networkKeys.aside({ limit: PAGE_SIZE });
  return {
    older: asked.ok && before !== undefined,
    error: asked.ok ? null : a.errors.before,
    nextBefore: page.nextBefore,
    items: page.items.map((r) => ({
      ...r,
      key: `${r.source}|${r.recordId}|${r.start}`,
      received: formatDateTime(r.receivedAt),
      from: formatDateTime(r.start),
      to: formatDateTime(r.end),
      up: grouped(r.bytesUp),
      down: grouped(r.bytesDown),
    })),
  };
}

export default function UsageAside() {
  const { older, error, nextBefore, items } = useLoaderData<typeof loader>();
  return (
    <div className="admin apikeys usage-aside">
      <h1>{a.title}</h1>
      <p>{a.intro}</p>
      <p>
        <Link to="/admin/network">{a.backToKeys}</Link>
      </p>
      {error ? (
        <Notice kind="warning" role="alert">
          {error}
        </Notice>
      ) : null}
      {items.length === 0 ? (
        <EmptyState>{a.none}</EmptyState>
      ) : (
        // Ten columns may be wider than the screen: the table scrolls, and its region takes focus to scroll by keys.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region
        <div className="table-wrap" tabIndex={0} role="region" aria-label={a.title}>
          <table className="apikeys-table">
            <caption className="visually-hidden">{a.title}</caption>
            <thead>
              <tr>
                <th scope="col">{a.receivedAt}</th>
                <th scope="col" className="hide-mobile">
                  {a.source}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.recordId}
                </th>
                <th scope="col">{a.iccid}</th>
                <th scope="col" className="hide-mobile">
                  {a.start}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.end}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.bytesUp}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.bytesDown}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.network}
                </th>
                <th scope="col" className="hide-mobile">
                  {a.country}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.key}>
                  <td className="apikeys-when">{r.received}</td>
                  <td className="hide-mobile">
                    <Truncated text={r.source} max={24} />
                  </td>
                  <td className="hide-mobile">
                    <Truncated text={r.recordId} max={24} />
                  </td>
                  <td className="apikeys-name">
                    <code>{r.iccid}</code>
                    <span className="only-mobile apikeys-sub">
                      <Truncated text={`${r.source} · ${r.recordId}`} max={30} />
                    </span>
                    <span className="only-mobile apikeys-sub">
                      {r.from} – {r.to}
                    </span>
                    <span className="only-mobile apikeys-sub">{a.bytesShort(r.up, r.down)}</span>
                    {r.network || r.country ? (
                      <span className="only-mobile apikeys-sub">
                        {[r.network, r.country].filter(Boolean).join(' · ')}
                      </span>
                    ) : null}
                  </td>
                  <td className="hide-mobile apikeys-when">{r.from}</td>
                  <td className="hide-mobile apikeys-when">{r.to}</td>
                  <td className="hide-mobile">{r.up}</td>
                  <td className="hide-mobile">{r.down}</td>
                  <td className="hide-mobile">{r.network ?? ''}</td>
                  <td className="hide-mobile">{r.country ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPager
        label={a.title}
        newest={older ? PATH : null}
        older={nextBefore ? `${PATH}?before=${encodeURIComponent(nextBefore)}` : null}
      />
    </div>
  );
}
