// Long: the list, its search, view, tag filter and bulk selection are one page: one loader, one action (the tags).
// The company's active SIMs as a work surface: server-side search (?q=) and pages of 50 in compact rows, live
// search with JS, and the bulk selection whose toolbar appears (CSS :has, with or without JS) once a box is ticked.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { BulkDeactivateDialog, type BulkSelection } from '#app/components/bulk/BulkDeactivateDialog.tsx';
import { t } from '#domain/texts/common.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { canWrite } from '#domain/companies/kinds.ts';
import { fieldConstraint } from '#app/utils/constraints.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { row } from '#app/sims/list-rows.ts';
import { SimRows, SimsPager } from '#app/components/sims/SimsList.tsx';
import { useLiveSearch } from '#app/components/sims/useLiveSearch.ts';
import { ExportLinks, SelectMatching, SelectPage, SelectionToolbar } from '#app/components/sims/Selection.tsx';
import { pageHref, stateParams, statusOf, tagsOf, type ListState } from '#app/sims/links.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { listQuery, type MatchingInput } from '#domain/sims/schemas.ts';
import { viewOf } from '#domain/sims/view.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { SimsViewControls, StateFilter } from '#app/components/sims/sims-view.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { useLiveUsage } from '#app/utils/live-usage.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { BULK_TAG, BULK_TAG_ADD, BULK_TAG_REMOVE, BulkTags } from '#app/components/tags/BulkTags.tsx';
import { BULK_PAUSE, BULK_RESUME, BulkPause } from '#app/components/sims/BulkPause.tsx';
import { tPause } from '#domain/texts/pause.ts';
import { useSlashFocus } from '#app/components/sims/useSlashFocus.ts';
import { useKeyboardList, useKeyboardToolbar } from '#app/components/sims/useKeyboardList.ts';
import { tSimsList } from '#domain/texts/sims-list.ts';

export const PAGE_SIZE = 50;

/** The bulk form's id: the buttons above the table (outside it) belong to it through their form attribute. */
const BULK_FORM = 'sims-bulk';
/** The search's GET form's id: the state's select beside the count belongs to it. */
const SEARCH_FORM = 'sims-search';

export const meta: MetaFunction = () => [{ title: `${t.pages.sims} – ${t.appName}` }];

/** The table's id: "Hoppa till listan", the page's first link, goes there (with JS: to the current row's box). */
const LIST_ID = 'sims-list';
export const handle = { skip: { href: `#${LIST_ID}`, label: tSimsList.skipToList } };

/** The search field's constraints from the schema: the same for every request, read once. */
const QUERY = fieldConstraint(listQuery.shape.q);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const url = new URL(request.url);
  const query = QUERY;
  const q = (url.searchParams.get('q') ?? '').slice(0, query.maxLength);
  // A negative or non-numeric page is page 1.
  const page = Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  // The sort and the usage filter (an unknown value is the default; a sort the filter does not allow, its first).
  // The tags (issue 40) go with the view into every link of the list (app/sims/links.ts).
  // The state (issue 40: active or paused only) goes the same way.
  const tag = tagsOf(url);
  const status = statusOf(url);
  const view = { ...viewOf(url.searchParams.get('sort'), url.searchParams.get('filter')), tag, status };
  const [{ items, total, exact }, { tags: companyTags }] = await Promise.all([
    context.trpc.sim.page({
      q,
      tag: tag.length ? tag : undefined,
      status: status ?? undefined,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
      sort: view.sort,
      filter: view.filter ?? undefined,
    }),
    context.trpc.tags.list(),
  ]);
  // Past a search's count cap the pages are "more than" (docs/decisions/019): known up to the cap.
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Past the end (an old link, fewer SIMs since): the last page, under its own address (for a search past the
  // cap, the last page known to exist).
  if ((exact && page > pages) || (!exact && items.length === 0 && page > pages))
    throw redirect(pageHref(q, pages, view));
  const now = Date.now();
  const asOf = items[0]?.usage.asOf;
  return {
    q,
    view,
    page,
    pages,
    total,
    exact,
    asOf: asOf ? tFleetUsage.asOf(formatDateTime(asOf)) : null,
    sims: items.map((s) => ({ ...row(s, now), tags: s.tags })),
    companyTags,
    query,
    // Bulk deactivation without JS: "Markera alla på sidan" comes back here with all=1 and every box ticked,
    // "Markera alla N som matchar" with all=matching (the confirm page then resolves the search itself).
    selectAll: selectAllOf(url.searchParams.get('all'), total > items.length),
    // A viewer gets the list without the boxes and the bulk buttons.
    writable: canWrite(session),
  };
}

/**
 * A tag added to or removed from the ticked SIMs (or every SIM of the search, "all that match"): the bulk form's
 * post (app/components/tags/BulkTags.tsx). Done: the list again as it was (the toast says how many changed);
 * refused: the message by the field, what was typed and the same boxes ticked.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const back = new URLSearchParams();
  for (const name of ['q', 'sort', 'filter', 'tag', 'status', 'page'])
    for (const value of form.getAll(name)) if (typeof value === 'string') back.append(name, value);
  const url = new URL(`/sims?${back}`, request.url);
  const q = formText(form, 'q');
  const page = Math.max(1, Number.parseInt(formText(form, 'page'), 10) || 1);
  const view = { ...viewOf(back.get('sort'), back.get('filter')), tag: tagsOf(url), status: statusOf(url) };
  const address = pageHref(q, page, view);
  const intent = formText(form, 'intent');
  const ids = form
    .getAll('id')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
  const matching = form.get('matching') === '1';
  if (intent === BULK_PAUSE || intent === BULK_RESUME)
    return bulkPauseAction(context, { intent, ids, matching, q, view, address });
  if (intent !== BULK_TAG_ADD && intent !== BULK_TAG_REMOVE) return redirect(address);
  const tag = formText(form, BULK_TAG);
  const change = intent === BULK_TAG_ADD ? { add: [tag] } : { remove: [tag] };
  const narrowed = narrowing(view);
  const result = await attempt(() =>
    context.trpc.sim.tags(matching ? { q, ...narrowed, ...change } : { ids, ...change }),
  );
  if (!result.ok) {
    const error = result.fields.add ?? result.fields.remove ?? Object.values(result.fields)[0] ?? '';
    return { bulkTagError: error, bulkTagValue: tag.slice(0, 200), ids, matching };
  }
  await context.ctx.showToasts({ flash: true });
  return redirect(address, { headers: procedureHeaders(context) });
}

/**
 * The ticked SIMs (or every SIM of the search, "all that match": resolved here by sim.matching, as the deactivation's
 * confirm does, so no list from the browser is believed) paused or resumed in one call. Done: the list again, the
 * toast with the counts (how many changed, how many were already so); refused: said by the buttons, the boxes kept.
 */
async function bulkPauseAction(
  context: ActionFunctionArgs['context'],
  p: { intent: string; ids: number[]; matching: boolean; q: string; view: ListState; address: string },
) {
  const ids = p.matching
    ? (await context.trpc.sim.matching({ q: p.q, ...narrowing(p.view) })).rows.map((r) => r.id)
    : [...new Set(p.ids)];
  if (ids.length === 0) return { bulkPauseError: tPause.bulkNone, ids: p.ids, matching: p.matching };
  const result = await attempt<unknown>(() =>
    p.intent === BULK_PAUSE ? context.trpc.sim.bulkPause({ ids }) : context.trpc.sim.bulkResume({ ids }),
  );
  if (!result.ok)
    return { bulkPauseError: Object.values(result.fields)[0] ?? t.error.notSent, ids: p.ids, matching: p.matching };
  await context.ctx.showToasts({ flash: true });
  return redirect(p.address, { headers: procedureHeaders(context) });
}

// A refused tag leaves the list as it is (the same rows, the same boxes ticked).
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  typeof actionResult === 'object' &&
  actionResult !== null &&
  ('bulkTagError' in actionResult || 'bulkPauseError' in actionResult)
    ? false
    : defaultShouldRevalidate;

/** The list's tags and state as "all that match" takes them with the search (none: left out). */
function narrowing(view: ListState): Omit<MatchingInput, 'q'> {
  return { tag: view.tag?.length ? [...view.tag] : undefined, status: view.status ?? undefined };
}

type Picked = 'page' | 'matching' | null;

function selectAllOf(all: string | null, morePages: boolean): Picked {
  if (all === '1') return 'page';
  if (all === 'matching') return morePages ? 'matching' : 'page';
  return null;
}

export default function Sims() {
  // New usage of the company shows without a reload (the event stream; at most every 10 s).
  useLiveUsage();
  const loaded = useLoaderData<typeof loader>();
  const { q, view, page, pages, total, exact, sims, writable } = loaded;
  const search = useLiveSearch(q, stateParams(view));
  // The bulk selection: ticked ids of this page, or every SIM matching the search. Without JS the
  // boxes are the form's own and the server renders them ticked for all=1 / all=matching.
  const initialPick = loaded.selectAll;
  // A refused bulk tag comes back with the boxes that were ticked (without JS the page is new).
  const refused = useActionData<typeof action>();
  const [picked, setPicked] = useState<Set<number>>(
    () => new Set(initialPick ? sims.map((s) => s.id) : (refused?.ids ?? [])),
  );
  const [matching, setMatching] = useState(initialPick === 'matching' || !!refused?.matching);
  const [dialogFor, setDialogFor] = useState<BulkSelection | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useSlashFocus('q');
  // The keyboard (issue 41): the rows one stop of Tab with arrows between them, the toolbar one stop for its buttons.
  const table = useRef<HTMLTableElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  useKeyboardList(table, `#${LIST_ID}`, sims);
  useKeyboardToolbar(bar, `button[value="${BULK_TAG_ADD}"]`);
  useEffect(() => {
    // A new list (another page, a live search) starts with what its address asked for.
    setPicked(new Set(initialPick ? sims.map((s) => s.id) : []));
    setMatching(initialPick === 'matching');
  }, [sims, initialPick]);
  const morePages = !exact || total > sims.length;
  // What shows before a tick is the same before and after hydration: nothing switches when JS arrives.
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
  const toolbar = (
    <SelectionToolbar
      counted={hydrated || !!initialPick}
      selected={selectedCount}
      matching={matching}
      total={total}
      narrowed={!!(q || view.tag.length || view.status)}
      exact={exact}
      bulkTags={
        <>
          <BulkPause error={refused && 'bulkPauseError' in refused ? refused.bulkPauseError : undefined} />
          <BulkTags
            companyTags={loaded.companyTags}
            error={refused && 'bulkTagError' in refused ? refused.bulkTagError : undefined}
            value={refused && 'bulkTagValue' in refused ? refused.bulkTagValue : undefined}
          />
        </>
      }
      barRef={bar}
      keyboard={hydrated}
      onDeactivate={(e) => {
        // Nothing ticked (the toolbar is hidden then): the confirm page says so, as without JS.
        if (selectedCount === 0) return;
        e.preventDefault();
        setDialogFor(
          matching
            ? { kind: 'matching', q, ...narrowing(view) }
            : { kind: 'rows', rows: sims.filter((s) => picked.has(s.id)) },
        );
      }}
    />
  );
  return (
    <div className="sims-surface">
      <h1>{t.pages.sims}</h1>
      <div className="sims-tools">
        <Form method="get" role="search" className="search sims-search" id={SEARCH_FORM}>
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
            aria-keyshortcuts="/"
            {...loaded.query}
            autoComplete="off"
          />
          <button className="btn" type="submit">
            {t.sims.search}
          </button>
          <SimsViewControls view={view} tags={loaded.companyTags} />
        </Form>
        <div className="sims-bar">
          <p className="sims-total" aria-live="polite">
            {search.searching ? '…' : t.sims.count(total, exact)}
          </p>
          <StateFilter status={view.status} form={SEARCH_FORM} />
          {loaded.asOf ? <p className="sims-asof">{loaded.asOf}</p> : null}
          {total > 0 ? <ExportLinks q={q} view={view} manageTags={loaded.companyTags.length > 0} /> : null}
          {/* "All that match" is the search with its tags and state: under a usage filter (a view of this month's
              figures, which change as usage comes in) only the page's boxes select. */}
          {writable && !view.filter && sims.length > 0 && (morePages || matching) ? (
            <SelectMatching
              form={BULK_FORM}
              q={q}
              page={page}
              view={view}
              total={total}
              exact={exact}
              matching={matching}
              onSelect={(e) => {
                e.preventDefault();
                setMatching(true);
                setPicked(new Set(sims.map((s) => s.id)));
              }}
              onClear={(e) => {
                e.preventDefault();
                setMatching(false);
                setPicked(new Set());
              }}
            />
          ) : null}
        </div>
      </div>
      {sims.length === 0 ? (
        <EmptyState
          action={
            q || view.filter || view.tag.length || view.status || !writable ? null : (
              <Link to="/add">{t.sims.activateFirst}</Link>
            )
          }
        >
          {view.filter || view.tag.length || view.status
            ? tFleetUsage.emptyView
            : q
              ? t.sims.emptySearch
              : t.sims.empty}
        </EmptyState>
      ) : (
        <Form
          id={BULK_FORM}
          method="get"
          action="/sims/deactivate"
          className="bulk-form"
          data-bulk-ready={hydrated ? '' : undefined}
        >
          {/* @bulkDeactivate: the ticked rows go to the confirm page, which changes nothing until its POST; with
              JS a dialog confirms instead. */}
          {writable ? (
            <>
              <input type="hidden" name="q" value={q} />
              {/* The page's toggle comes back to this view (formAction /sims). */}
              {[...stateParams(view)].map(([name, value]) => (
                <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
              ))}
              <input type="hidden" name="page" value={page} />
              {matching ? <input type="hidden" name="matching" value="1" /> : null}
            </>
          ) : null}
          {/* With JS the toolbar stands before the rows, so the keyboard reaches it from a row in one Shift+Tab; without
              JS after them, where the CSS counter has counted the ticked boxes. It floats at the screen's foot either way. */}
          {writable && hydrated ? toolbar : null}
          <SimRows
            tableRef={table}
            id={LIST_ID}
            sims={sims}
            writable={writable}
            picked={picked}
            onToggle={toggle}
            q={q}
            view={view}
            page={page}
            selectAll={
              <SelectPage
                allOnPage={allOnPage}
                onClick={(e) => {
                  e.preventDefault();
                  setMatching(false);
                  setPicked(new Set(allOnPage ? [] : sims.map((s) => s.id)));
                }}
              />
            }
          />
          {writable && !hydrated ? toolbar : null}
        </Form>
      )}
      {dialogFor ? <BulkDeactivateDialog selection={dialogFor} onClose={() => setDialogFor(null)} /> : null}
      <SimsPager q={q} view={view} page={page} pages={pages} exact={exact} full={sims.length === PAGE_SIZE} />
    </div>
  );
}
