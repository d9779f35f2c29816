// Deactivate many SIMs: the ticked rows of /sims arrive here as ?id=…, or "all matching the search"
// as ?matching=1&q=… (with the list's tag= and status=), which is resolved here by the selection's own procedure (sim.matching with that search, at most
// BULK_SELECT_MAX), so the search has one truth and no count from the browser is believed. The page only lists what
// will happen (GET changes nothing), the button POSTs the listed ids to sim.bulkDeactivate and the answer is
// shown per row. Named sims_ so it renders on its own, not inside a /sims layout.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import {
  DeactivateIccidsForm,
  ReadyIccids,
  RefusedIccids,
  ShortIccid as Iccid,
} from '#app/components/bulk/IccidList.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { requireWriter } from '#app/utils/auth.server.ts';
import { fieldConstraint } from '#app/utils/constraints.ts';
import { attempt, FORM_ERROR } from '#app/utils/forms.server.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { listQuery } from '#domain/sims/schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { statusOf, tagsOf } from '#app/sims/links.ts';

export const ErrorBoundary = routeErrorBoundary(tBulkDeactivate.title);

export const meta: MetaFunction = () => [{ title: `${tBulkDeactivate.title} – ${t.appName}` }];

/** The ids of the list, each once; anything that is not an id is not a SIM of ours and is left out. */
function idsOf(values: FormDataEntryValue[]): number[] {
  const ids = values
    .filter((v): v is string => typeof v === 'string' && /^[1-9]\d{0,9}$/.test(v))
    .map(Number)
    .filter((n) => n <= 2_147_483_647);
  return [...new Set(ids)];
}

type Row = { id: number; iccid: string };

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireWriter(request, context);
  const url = new URL(request.url);
  const params = url.searchParams;
  const nothing = { tooMany: false, ready: [] as Row[], refused: [] as Row[], gone: 0, matching: null };
  const split = (sims: Array<{ id: number; iccid: string; ratePlan: { isLegacy: boolean } }>) => ({
    ready: sims.filter((s) => !s.ratePlan.isLegacy).map((s): Row => ({ id: s.id, iccid: s.iccid })),
    // Listed, not silently skipped: the user sees which of the ticked SIMs stay active and why.
    refused: sims.filter((s) => s.ratePlan.isLegacy).map((s): Row => ({ id: s.id, iccid: s.iccid })),
  });
  if (params.get('matching') === '1') {
    // Every SIM the /sims search finds (the same procedure, so the same search), the first BULK_SELECT_MAX of them.
    // The tags and the state of the list narrow it as on /sims (app/sims/links.ts reads them alike).
    const q = (params.get('q') ?? '').slice(0, fieldConstraint(listQuery.shape.q).maxLength);
    const tag = tagsOf(url);
    const status = statusOf(url);
    const { rows, total, exact } = await context.trpc.sim.matching({
      q,
      tag: tag.length ? tag : undefined,
      status: status ?? undefined,
    });
    const sims = rows.map((r) => ({ id: r.id, iccid: r.iccid, ratePlan: { isLegacy: r.legacy } }));
    return { ...nothing, ...split(sims), matching: { q, tag, status, total, exact } };
  }
  const ids = idsOf(params.getAll('id'));
  if (ids.length === 0) return nothing;
  if (ids.length > BULK_SELECT_MAX) return { ...nothing, tooMany: true };
  const sims = (await context.trpc.sim.byIds({ ids })).filter((s) => s.status === 'active');
  return {
    ...nothing,
    ...split(sims),
    // Ticked but no longer an active SIM of the company (deactivated meanwhile, in another tab).
    gone: ids.length - sims.length,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireWriter(request, context);
  const ids = idsOf((await request.formData()).getAll('id'));
  if (ids.length === 0) return { error: tBulkDeactivate.none };
  if (ids.length > BULK_SELECT_MAX) return { error: tBulkDeactivate.tooMany(BULK_SELECT_MAX) };
  const done = await attempt(() => context.trpc.sim.bulkDeactivate({ ids }));
  if (!done.ok) return { error: done.fields[FORM_ERROR] ?? Object.values(done.fields)[0] };
  // The summary toast goes to the user's other tabs; this page shows the rows themselves.
  await context.ctx.showToasts({ flash: false });
  const names = new Map((await context.trpc.sim.byIds({ ids })).map((s) => [s.id, s.iccid]));
  return {
    results: done.value.results.map((r) => ({ ...r, iccid: names.get(r.id) ?? null })),
    counts: done.value.counts,
  };
}

export default function BulkDeactivate() {
  const { tooMany, ready, refused, gone, matching } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  if (data?.results && data.counts) {
    const { results, counts } = data;
    return (
      <>
        <h1>{tBulkDeactivate.resultTitle}</h1>
        <ul className="deactivate-counts" aria-label={tBulkDeactivate.outcome}>
          {Object.entries(counts)
            .filter(([, n]) => n > 0)
            .map(([outcome, n]) => (
              <li key={outcome}>
                {tBulkDeactivate.outcomes[outcome]}: <strong>{n}</strong>
              </li>
            ))}
        </ul>
        <table className="bulk-results">
          <thead>
            <tr>
              <th scope="col">{t.sims.iccid}</th>
              <th scope="col">{tBulkDeactivate.outcome}</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.id} data-outcome={r.outcome}>
                <td className="iccid">{r.iccid ? <Iccid iccid={r.iccid} /> : tBulkDeactivate.unknown(r.id)}</td>
                <td>{tBulkDeactivate.outcomes[r.outcome]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          <Link className="btn" to="/sims">
            {tBulkDeactivate.back}
          </Link>
        </p>
      </>
    );
  }
  const error = data?.error ?? (tooMany ? tBulkDeactivate.tooMany(BULK_SELECT_MAX) : null);
  return (
    <>
      <h1>{tBulkDeactivate.title}</h1>
      {error ? (
        <Notice kind="error" role="alert">
          {error}
        </Notice>
      ) : null}
      {ready.length === 0 && refused.length === 0 && !tooMany ? <Notice>{tBulkDeactivate.none}</Notice> : null}
      <div className="card">
        {matching ? <p className="muted">{tBulkDeactivate.matchingFor(matching)}</p> : null}
        {matching && (!matching.exact || matching.total > BULK_SELECT_MAX) ? (
          <Notice>{tBulkDeactivate.capped(matching.total, BULK_SELECT_MAX, matching.exact)}</Notice>
        ) : null}
        {ready.length > 0 ? (
          <>
            <p>{tBulkDeactivate.willDeactivate(ready.length)}</p>
            <ReadyIccids rows={ready} />
          </>
        ) : null}
        {refused.length > 0 ? (
          <>
            <h2>{tBulkDeactivate.refusedHeading}</h2>
            <RefusedIccids rows={refused} />
          </>
        ) : null}
        {gone > 0 ? <p className="muted">{tBulkDeactivate.notListed(gone)}</p> : null}
        <DeactivateIccidsForm
          ready={ready}
          refused={refused}
          cancel={
            <Link className="btn" to="/sims">
              {tBulkDeactivate.cancel}
            </Link>
          }
        />
      </div>
    </>
  );
}
