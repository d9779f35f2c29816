// Long: the rows, their sortable headers and the pager are the one table of /sims and share its row type.
// The rows and the pager of /sims (app/routes/sims._index.tsx): each SIM with its box for the bulk selection
// (for a writer; the whole cell is the box's label, 44 px on a phone), its ICCID (the last 8 digits on a phone),
// mark, this month's usage (and share of the plan), last seen (on a phone only when the view is about it), on a wide
// screen its plan and activation day, and its link, which on a phone covers the whole row (CSS only: a tap anywhere
// but the box opens the SIM); the sortable columns' headers and the pages as plain links carrying search and view.
import type { MouseEvent, ReactNode, RefObject } from 'react';
import { Link, useNavigate } from '@remix-run/react';
import { listOf, pageHref, type ListState } from '#app/sims/links.ts';
import { withList } from '#app/sims/list-return.ts';
import { FILTER_SORTS, SORTS, type Sort } from '#domain/sims/view.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { truncate } from '#app/utils/text.ts';
import { t } from '#domain/texts/common.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { tSimsList } from '#domain/texts/sims-list.ts';
import { tTags } from '#domain/texts/tags.ts';
import { PausedBadge } from './PausedBadge.tsx';

/**
 * A row as the loader hands it over: the plan's name, the activation day, this month's usage ("1,2 GB", or "–"), its
 * whole percent of the plan's amount and the last sighting ("3 min sedan") already in words.
 */
export type SimRow = {
  id: number;
  iccid: string;
  mark: string;
  legacy: boolean;
  plan: string;
  activated: string;
  used: string;
  pct: number | null;
  seen: string;
  /** Its tags (issue 40), in text order; paused (issue 40): the badge after its ICCID. */
  tags: string[];
  paused: boolean;
};

type RowsProps = {
  sims: SimRow[];
  /** A viewer gets the list without the boxes. */
  writable: boolean;
  picked: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
  /** The column header of the boxes: "Markera alla på sidan" (a writer only). */
  selectAll?: ReactNode;
  /** The search, view and page, for the sortable columns' links and each SIM's way back to this list. */
  q: string;
  view: ListState;
  page?: number;
  /** The keyboard's list (app/components/sims/useKeyboardList.ts): the table and its id (the skip link's). */
  tableRef?: RefObject<HTMLTableElement>;
  id?: string;
};

/**
 * A sortable column's header: a link to the list sorted by it (the other way round when it already is), or its
 * name alone when the view's filter does not sort by it; aria-sort says how the list is sorted.
 */
function SortHeader(p: {
  name: string;
  /** A phone's shorter name (the column is as narrow as its figures). */
  short?: string;
  by: 'activated' | 'usage' | 'seen';
  q: string;
  view: ListState;
  wide?: boolean;
}) {
  const current = p.view.sort.startsWith(`${p.by}-`);
  const descending = p.view.sort === `${p.by}-desc`;
  const next: Sort = current && descending ? `${p.by}-asc` : `${p.by}-desc`;
  const allowed = p.view.filter ? FILTER_SORTS[p.view.filter] : SORTS;
  const name = p.short ? (
    <>
      <span className="sims-name-short">{p.short}</span>
      <span className="sims-name-long">{p.name}</span>
    </>
  ) : (
    p.name
  );
  return (
    <th
      scope="col"
      className={p.wide ? 'sims-wide' : `sims-${p.by}`}
      aria-sort={current ? (descending ? 'descending' : 'ascending') : undefined}
    >
      {allowed.includes(next) ? (
        <Link to={pageHref(p.q, 1, { ...p.view, sort: next })} preventScrollReset>
          {name}
          {current ? <span aria-hidden="true">{descending ? ' ▼' : ' ▲'}</span> : null}
        </Link>
      ) : (
        name
      )}
    </th>
  );
}

/**
 * A plain click on a row's link (the main button, no modifier key, not handled already): the app's navigation,
 * as Remix's <Link> does it. One handler for the table's 50 links, each a plain <a> with the attributes <Link>
 * renders (data-discover: its route is found as a <Link>'s is), not 50 <Link> components, whose hooks were a
 * large part of the server's work on /sims (bench:load).
 */
function useRowLinks(): (e: MouseEvent<HTMLAnchorElement>) => void {
  const navigate = useNavigate();
  return (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    const href = e.currentTarget.getAttribute('href');
    if (!href) return;
    e.preventDefault();
    navigate(href);
  };
}

/**
 * A row's tags beside its mark (under it on a phone), small and on one line: what does not fit is cut (the whole
 * list in the title), so a row with tags is as tall as one without.
 */
function RowTags({ tags }: { tags: string[] }) {
  return (
    <span className="row-tags" title={tags.join(', ')}>
      <span className="visually-hidden">{tTags.listLabel}: </span>
      {tags.map((tag) => (
        <span key={tag} className="row-tag">
          {tag}
        </span>
      ))}
    </span>
  );
}

/** The mark's characters shown in a row; a longer one is cut, and its cell's title holds it whole. */
const MARK_SHOWN = 30;

/**
 * The table. A row is lean (50 of them are a large part of the server's work on /sims: bench/load-cpu.ts): the
 * ICCID once, its first digits in a span a phone hides (sims.css); no title but a cut mark's; the plan, day and
 * link cells without classes (sims.css finds them by place); the link's word without a span of its own.
 */
export function SimRows({ sims, writable, picked, onToggle, selectAll, q, view, page = 1, tableRef, id }: RowsProps) {
  const onLinkClick = useRowLinks();
  // A SIM's page remembers this list (its search and page: "< Backa" and a deactivation come back to it).
  const list = listOf(q, page, view);
  const bySeen = view.sort.startsWith('seen') || view.filter === 'never';
  return (
    <table className={bySeen ? 'sims sims-by-seen' : 'sims'} ref={tableRef} id={id} tabIndex={id ? -1 : undefined}>
      <thead>
        <tr>
          {writable ? (
            <th scope="col" className="select">
              {selectAll}
            </th>
          ) : null}
          <th scope="col">{t.sims.iccid}</th>
          <th scope="col" className="sims-mark">
            <span className="sims-name-short">{t.sims.markShort}</span>
            <span className="sims-name-long">{t.sims.mark}</span>
          </th>
          <SortHeader name={tFleetUsage.usage} short={tFleetUsage.usageShort} by="usage" q={q} view={view} />
          <SortHeader name={tFleetUsage.seen} short={tFleetUsage.seenShort} by="seen" q={q} view={view} />
          <th scope="col" className="sims-wide">
            {t.sims.plan}
          </th>
          <SortHeader name={tSimsList.activated} by="activated" q={q} view={view} wide />
          <th scope="col" className="sims-open-col">
            <span className="visually-hidden">{t.sims.edit}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {sims.map((s) => (
          <tr key={s.id}>
            {writable ? (
              <td className="select">
                <label>
                  <input
                    type="checkbox"
                    name="id"
                    value={s.id}
                    checked={picked.has(s.id)}
                    onChange={(e) => onToggle(s.id, e.currentTarget.checked)}
                    aria-label={tBulkDeactivate.select(s.iccid)}
                  />
                </label>
              </td>
            ) : null}
            <td className="iccid">
              <span>{s.iccid.slice(0, -8)}</span>
              {s.iccid.slice(-8)}
              {s.paused ? <PausedBadge /> : null}
            </td>
            <td className="mark" title={s.mark.length > MARK_SHOWN ? s.mark : undefined}>
              {s.tags.length ? (
                <span className="mark-line">
                  <span>{truncate(s.mark, MARK_SHOWN)}</span>
                  <RowTags tags={s.tags} />
                </span>
              ) : (
                truncate(s.mark, MARK_SHOWN)
              )}
            </td>
            <td className={s.pct !== null && s.pct > 80 ? 'over' : undefined}>
              {s.used}
              {s.pct === null ? null : <small> {s.pct} %</small>}
            </td>
            <td>{s.seen}</td>
            <td>{s.plan}</td>
            <td>{s.activated}</td>
            <td>
              <a
                className="sims-open"
                aria-label={writable ? t.sims.editLabel(s.iccid) : t.sims.viewLabel(s.iccid)}
                data-discover="true"
                href={withList(`/sims/${s.id}`, list)}
                onClick={onLinkClick}
              >
                {writable ? t.sims.edit : t.sims.view}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type PagerProps = {
  q: string;
  view: ListState;
  page: number;
  pages: number;
  /** false: past a search's count cap, the number of pages is "more than" (docs/decisions/019). */
  exact: boolean;
  /** This page is full: past the cap, a next page may exist. */
  full: boolean;
};

export function SimsPager({ q, view, page, pages, exact, full }: PagerProps) {
  if (pages <= 1 && exact) return null;
  return (
    <nav className="pager sims-pager" aria-label={t.sims.page(page, pages, exact)}>
      {page > 1 ? (
        <Link to={pageHref(q, page - 1, view)} rel="prev">
          {t.sims.previous}
        </Link>
      ) : (
        <span />
      )}
      <span>{t.sims.page(page, pages, exact)}</span>
      {page < pages || (!exact && full) ? (
        <Link to={pageHref(q, page + 1, view)} rel="next">
          {t.sims.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
