// The parts of /sims around its rows (app/routes/sims._index.tsx): the export links, and the bulk selection's
// controls: "all that match" (or its undoing) above the table, the page's toggle in the boxes' column, and the
// toolbar of the ticked rows. Each is a plain form control first (it works without JS); with JS the route's
// handlers act in place. The route holds the selection; these only draw it.
import { Link } from '@remix-run/react';
import type { MouseEvent, ReactNode, RefObject } from 'react';
import { exportHref, pageHref, type ListState } from '#app/sims/links.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { tListExport } from '#domain/texts/list-file.ts';
import { tTagsPage } from '#domain/texts/tags-page.ts';
import { tSimsList } from '#domain/texts/sims-list.ts';

type Click = (e: MouseEvent) => void;

/** Plain links carrying the search: the file downloads with or without JS, and follows a live search. */
export function ExportLinks({ q, view, manageTags }: { q: string; view?: ListState; manageTags?: boolean }) {
  return (
    <p className="sims-export">
      <span className="sims-export-label">{tListExport.label}:</span>
      <a href={exportHref('csv', q, view)} aria-label={tListExport.csvLabel(q)}>
        {tListExport.csv}
      </a>
      <a href={exportHref('xlsx', q, view)} aria-label={tListExport.xlsxLabel(q)}>
        {tListExport.xlsx}
      </a>
      {/* The company's tags (rename, delete): beside the files, out of the controls' row, whose wrap cost rows. */}
      {manageTags ? (
        <Link className="sims-tags-manage" to="/sims/tags">
          {tTagsPage.manageLink}
        </Link>
      ) : null}
    </p>
  );
}

/**
 * "Markera alla N som matchar" and, once they are, "Avmarkera alla" in the same place (nothing moves). The button
 * belongs to the bulk form by its id (it stands above it); without JS it brings the page back with all=matching.
 */
export function SelectMatching(p: {
  form: string;
  q: string;
  page: number;
  view?: ListState;
  total: number;
  exact: boolean;
  matching: boolean;
  onSelect: Click;
  onClear: Click;
}) {
  return (
    <p className="sims-select">
      {p.matching ? (
        <Link className="btn btn-small" to={pageHref(p.q, p.page, p.view)} onClick={p.onClear}>
          {tBulkDeactivate.clearMatching}
        </Link>
      ) : (
        <button
          className="btn btn-small"
          type="submit"
          form={p.form}
          formAction="/sims"
          name="all"
          value="matching"
          onClick={p.onSelect}
        >
          {tBulkDeactivate.selectMatching(p.total, !!(p.q || p.view?.tag?.length || p.view?.status), p.exact)}
        </button>
      )}
    </p>
  );
}

/** The page's toggle in the boxes' column: without JS the page comes back with every box ticked (or none). */
export function SelectPage({ allOnPage, onClick }: { allOnPage: boolean; onClick: Click }) {
  const label = allOnPage ? tBulkDeactivate.unselectAll : tBulkDeactivate.selectAll;
  return (
    <button
      className="sims-all"
      type="submit"
      formAction="/sims"
      name="all"
      value={allOnPage ? '0' : '1'}
      title={label}
      onClick={onClick}
    >
      <span className="visually-hidden">{label}</span>
    </button>
  );
}

/**
 * The toolbar of the ticked rows, after the table (so that without JS a CSS counter has counted the ticked boxes
 * before it), shown by CSS only while a box is ticked and laid over the screen's foot, so no row moves. The count
 * in words comes with JS (or from the server for all=1 / all=matching); the button is never disabled: with
 * nothing ticked the confirm page says so.
 */
export function SelectionToolbar(p: {
  /** The count in words: with JS, or when the server ticked the boxes. */
  counted: boolean;
  selected: number;
  matching: boolean;
  total: number;
  /** A search, tags or a state narrow the list. */
  narrowed: boolean;
  exact: boolean;
  onDeactivate: Click;
  /** More actions on the ticked rows, before deactivation (the tags: app/components/tags/BulkTags.tsx). */
  bulkTags?: ReactNode;
  /** The keyboard's toolbar with JS (one stop, arrows between the buttons: useKeyboardToolbar). */
  barRef?: RefObject<HTMLDivElement>;
  keyboard?: boolean;
}) {
  return (
    <div
      className="sims-toolbar"
      role={p.keyboard ? 'toolbar' : 'group'}
      aria-label={tSimsList.toolbar}
      data-picked={tSimsList.pickedCount}
      ref={p.barRef}
    >
      {p.counted ? (
        <p className="bdsel-count" aria-live="polite">
          <strong>{tBulkDeactivate.selected(p.selected)}</strong>
          {p.matching ? <span> · {tBulkDeactivate.matchingSelected(p.total, p.narrowed, p.exact)}</span> : null}
          {p.matching && (!p.exact || p.total > BULK_SELECT_MAX) ? (
            <span> {tBulkDeactivate.capped(p.total, BULK_SELECT_MAX, p.exact)}</span>
          ) : null}
        </p>
      ) : null}
      {p.bulkTags}
      <button className="btn btn-destructive" type="submit" onClick={p.onDeactivate}>
        {tBulkDeactivate.submit}
      </button>
    </div>
  );
}
