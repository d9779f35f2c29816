// The company's active SIMs: server-side search (?q=) and pages of 50; live search with JS.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { BulkDeactivateDialog, type BulkSelection } from '#app/components/bulk/BulkDeactivateDialog.tsx';
import { t } from '#domain/texts/common.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { tListExport } from '#domain/texts/list-file.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { canWrite } from '#domain/companies/kinds.ts';
import { fieldConstraint } from '#app/utils/constraints.ts';
import { SimRows, SimsPager } from '#app/components/sims/SimsList.tsx';
import { useLiveSearch } from '#app/components/sims/useLiveSearch.ts';
import { exportHref, pageHref } from '#app/sims/links.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { listQuery } from '#domain/sims/schemas.ts';

export const PAGE_SIZE = 50;

export const meta: MetaFunction = () => [{ title: `${t.pages.sims} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const url = new URL(request.url);
  const query = fieldConstraint(listQuery.shape.q);
  const q = (url.searchParams.get('q') ?? '').slice(0, query.maxLength);
  // A negative or non-numeric page is page 1.
  const page = Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  const { items, total, exact } = await context.trpc.sim.page({
    q,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  // Past a search's count cap the pages are "more than" (docs/decisions/019): known up to the cap.
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Past the end (an old link, fewer SIMs since): the last page, under its own address (for a search past the
  // cap, the last page known to exist).
  if ((exact && page > pages) || (!exact && items.length === 0 && page > pages)) throw redirect(pageHref(q, pages));
  return {
    q,
    page,
    pages,
    total,
    exact,
    sims: items.map(row),
    query,
    // Bulk deactivation without JS: "Markera alla på sidan" comes back here with all=1 and every box ticked,
    // "Markera alla N som matchar" with all=matching (the confirm page then resolves the search itself).
    selectAll: selectAllOf(url.searchParams.get('all'), total > items.length),
    // A viewer gets the list without the boxes and the bulk buttons.
    writable: canWrite(session),
  };
}

type Picked = 'page' | 'matching' | null;

function selectAllOf(all: string | null, morePages: boolean): Picked {
  if (all === '1') return 'page';
  if (all === 'matching') return morePages ? 'matching' : 'page';
  return null;
}

function row(s: { id: number; iccid: string; invoiceLineMark: string; ratePlan: { isLegacy: boolean } }) {
  return { id: s.id, iccid: s.iccid, mark: s.invoiceLineMark, legacy: s.ratePlan.isLegacy };
}

export default function Sims() {
  const loaded = useLoaderData<typeof loader>();
  const { q, page, pages, total, exact, sims } = loaded;
  const search = useLiveSearch(q);
  // The bulk selection: ticked ids of this page, or every SIM matching the search. Without JS the
  // boxes are the form's own and the server renders them ticked for all=1 / all=matching.
  const initialPick = loaded.selectAll;
  const [picked, setPicked] = useState<Set<number>>(() => new Set(initialPick ? sims.map((s) => s.id) : []));
  const [matching, setMatching] = useState(initialPick === 'matching');
  const [dialogFor, setDialogFor] = useState<BulkSelection | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    // A new list (another page, a live search) starts with what its address asked for.
    setPicked(new Set(initialPick ? sims.map((s) => s.id) : []));
    setMatching(initialPick === 'matching');
  }, [sims, initialPick]);
  const morePages = !exact || total > sims.length;
  const allOnPage = sims.length > 0 && sims.every((s) => picked.has(s.id));
  const selectedCount = matching ? Math.min(total, BULK_SELECT_MAX) : picked.size;
  const toggle = (id: number, on: boolean) => {
    setPicked((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
    if (!on) setMatching(false);
  };
  return (
    <>
      <h1>{t.pages.sims}</h1>
      <Form method="get" role="search" className="search">
        <label htmlFor="q" className="visually-hidden">
          {t.sims.searchLabel}
        </label>
        <input
          id="q"
          name="q"
          type="search"
          value={search.text}
          onChange={(e) => search.typed(e.currentTarget.value)}
          placeholder={t.sims.searchPlaceholder}
          {...loaded.query}
          autoComplete="off"
        />
        <button className="btn" type="submit">
          {t.sims.search}
        </button>
      </Form>
      <p className="muted" aria-live="polite">
        {search.searching ? '…' : t.sims.count(total, exact)}
      </p>
      {total > 0 ? (
        // Plain links carrying the search: the file downloads with or without JS, and follows a live search.
        <p>
          {tListExport.label}:{' '}
          <a href={exportHref('csv', q)} aria-label={tListExport.csvLabel(q)}>
            {tListExport.csv}
          </a>{' '}
          ·{' '}
          <a href={exportHref('xlsx', q)} aria-label={tListExport.xlsxLabel(q)}>
            {tListExport.xlsx}
          </a>
        </p>
      ) : null}
      {sims.length === 0 ? (
        <p className="notice">
          {q ? t.sims.emptySearch : t.sims.empty}{' '}
          {q || !loaded.writable ? null : <Link to="/add">{t.sims.activateFirst}</Link>}
        </p>
      ) : (
        <Form method="get" action="/sims/deactivate" className="bulk-form" data-bulk-ready={hydrated ? '' : undefined}>
          {/* @bulkDeactivate: the ticked rows go to the confirm page, which changes nothing until its POST; with
              JS a dialog confirms instead. */}
          {loaded.writable ? (
            <>
              <div className="bulk-actions">
                <input type="hidden" name="q" value={q} />
                <input type="hidden" name="page" value={page} />
                {matching ? <input type="hidden" name="matching" value="1" /> : null}
                <button
                  className="btn"
                  type="submit"
                  formAction="/sims"
                  name="all"
                  value="1"
                  onClick={(e) => {
                    // With JS the page is ticked (or unticked) in place; without, the page comes back ticked.
                    e.preventDefault();
                    setMatching(false);
                    setPicked(new Set(allOnPage ? [] : sims.map((s) => s.id)));
                  }}
                >
                  {hydrated && allOnPage ? tBulkDeactivate.unselectAll : tBulkDeactivate.selectAll}
                </button>
                {morePages && !matching ? (
                  <button
                    className="btn"
                    type="submit"
                    formAction="/sims"
                    name="all"
                    value="matching"
                    onClick={(e) => {
                      e.preventDefault();
                      setMatching(true);
                      setPicked(new Set(sims.map((s) => s.id)));
                    }}
                  >
                    {tBulkDeactivate.selectMatching(total, q, exact)}
                  </button>
                ) : null}
                {matching ? (
                  <Link
                    className="btn"
                    to={pageHref(q, page)}
                    onClick={(e) => {
                      e.preventDefault();
                      setMatching(false);
                      setPicked(new Set());
                    }}
                  >
                    {tBulkDeactivate.clearMatching}
                  </Link>
                ) : null}
                <button
                  className="btn btn-destructive"
                  type="submit"
                  // Only with JS is the count known as boxes are ticked; without JS the confirm page says if none was.
                  disabled={hydrated && selectedCount === 0}
                  onClick={(e) => {
                    e.preventDefault();
                    setDialogFor(
                      matching ? { kind: 'matching', q } : { kind: 'rows', rows: sims.filter((s) => picked.has(s.id)) },
                    );
                  }}
                >
                  {tBulkDeactivate.submit}
                </button>
              </div>
              {hydrated || initialPick ? (
                <p className="bdsel-count" aria-live="polite">
                  <strong>{tBulkDeactivate.selected(selectedCount)}</strong>
                  {matching ? <span> · {tBulkDeactivate.matchingSelected(total, q, exact)}</span> : null}
                  {matching && (!exact || total > BULK_SELECT_MAX) ? (
                    <span> {tBulkDeactivate.capped(total, BULK_SELECT_MAX, exact)}</span>
                  ) : null}
                </p>
              ) : null}
            </>
          ) : null}
          <SimRows sims={sims} writable={loaded.writable} picked={picked} onToggle={toggle} />
        </Form>
      )}
      {dialogFor ? <BulkDeactivateDialog selection={dialogFor} onClose={() => setDialogFor(null)} /> : null}
      <SimsPager q={q} page={page} pages={pages} exact={exact} full={sims.length === PAGE_SIZE} />
    </>
  );
}
