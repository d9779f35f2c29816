// The search box, the table and the pager of the server-rendered admin lists. Without JS the search is a GET form;
// with JS it also searches while the user types (the same GET, without a full reload).
import { Form, Link, useLocation, useSubmit } from '@remix-run/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { tAdmin } from '#domain/texts/admin.ts';
import type { FieldConstraint } from '#app/utils/constraints.ts';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';

/** `constraint`: the search text's, from the list procedure's schema (the loader reads it). */
export function SearchForm({
  id,
  label,
  hint,
  q,
  constraint,
}: {
  id: string;
  label: string;
  hint: string;
  q: string;
  constraint: FieldConstraint;
}) {
  const submit = useSubmit();
  const { pathname } = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form method="get" action={pathname} role="search" className="search" preventScrollReset>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="search-row">
          <input
            id={id}
            name="q"
            type="search"
            defaultValue={q}
            {...constraint}
            autoComplete="off"
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              const form = e.currentTarget.form;
              clearTimeout(timer.current);
              timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300);
            }}
          />
          <button className="btn" type="submit">
            {tAdmin.searchButton}
          </button>
        </div>
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      </div>
    </Form>
  );
}

/** Previous/next links that keep the search; `hasNext` comes from fetching one row more than a page. */
export function Pager({
  q,
  page,
  hasNext,
  shown,
  pageSize,
  label,
}: {
  q: string;
  page: number;
  hasNext: boolean;
  shown: number;
  pageSize: number;
  label: string;
}) {
  const { pathname } = useLocation();
  if (page === 1 && !hasNext) return null;
  const href = (p: number) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (p > 1) params.set('page', String(p));
    const s = params.toString();
    return s ? `${pathname}?${s}` : pathname;
  };
  const from = (page - 1) * pageSize + 1;
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link to={href(page - 1)} preventScrollReset>
          {tAdmin.previous}
        </Link>
      ) : (
        <span />
      )}
      <span className="muted">{shown ? tAdmin.pageInfo(from, from + shown - 1) : null}</span>
      {hasNext ? (
        <Link to={href(page + 1)} preventScrollReset>
          {tAdmin.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The page number from ?page= (1 when missing or not a sensible number). */
export function pageParam(url: URL): number {
  const n = Number(url.searchParams.get('page'));
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** The search text from ?q=, cut to what the procedures accept. */
export function queryParam(url: URL): string {
  return (url.searchParams.get('q') ?? '').trim().slice(0, 200);
}

/**
 * A list as a table with an "Redigera" link per row, or the empty message. A column marked `wide` is left
 * out on a phone (fold its value into another cell there).
 */
export function AdminTable<R extends { id: number }>({
  caption,
  empty,
  columns,
  rows,
  cells,
  edit,
}: {
  caption: string;
  empty: string;
  columns: Array<{ header: string; wide?: boolean }>;
  rows: R[];
  cells: (row: R) => ReactNode[];
  edit: (row: R) => { to: string; label: string };
}) {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.wide ? 'hide-mobile' : undefined}>
                {c.header}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{tAdmin.edit}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const link = edit(row);
            return (
              <tr key={row.id}>
                {cells(row).map((cell, i) => (
                  <td key={columns[i]?.header ?? i} className={columns[i]?.wide ? 'hide-mobile' : undefined}>
                    {cell}
                  </td>
                ))}
                <td className="edit-cell">
                  <Link to={link.to} aria-label={link.label}>
                    {tAdmin.edit}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
