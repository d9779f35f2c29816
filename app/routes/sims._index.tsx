// The company's active SIMs: server-side search (?q=) and pages of 50; live search with JS.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { t } from '~/texts';
import { requireUser } from '~/utils/auth.server';
import { fieldConstraint } from '~/utils/constraints';
import { truncate } from '~/utils/text';
import { listQuery } from '../../server/sims/schemas';

export const PAGE_SIZE = 50;

export const meta: MetaFunction = () => [{ title: `${t.pages.sims} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const url = new URL(request.url);
  const query = fieldConstraint(listQuery.shape.q);
  const q = (url.searchParams.get('q') ?? '').slice(0, query.maxLength);
  // A negative or non-numeric page is page 1.
  const page = Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  const { items, total } = await context.trpc.sim.page({ q, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  // Past the end (an old link, fewer SIMs since): the last page, under its own address.
  if (page > pages) throw redirect(pageHref(q, pages));
  return {
    q,
    page,
    pages,
    total,
    sims: items.map((s) => ({ id: s.id, iccid: s.iccid, mark: s.invoiceLineMark })),
    query,
    // Bulk deactivation without JS: "Markera alla på sidan" comes back here with all=1 and every box ticked.
    selectAll: url.searchParams.get('all') === '1',
  };
}

function pageHref(q: string, page: number) {
  const p = new URLSearchParams();
  if (q) p.set('q', q);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `/sims?${s}` : '/sims';
}

function exportHref(format: 'csv' | 'xlsx', q: string) {
  const p = new URLSearchParams({ format });
  if (q) p.set('q', q);
  return `/api/sim/export?${p}`;
}

type ListState = {
  q: string;
  page: number;
  pages: number;
  total: number;
  sims: Array<{ id: number; iccid: string; mark: string }>;
};

export default function Sims() {
  const loaded = useLoaderData<typeof loader>();
  // Live search (JS): the first page of results through the tRPC client, the URL kept in sync.
  const [live, setLive] = useState<ListState | null>(null);
  const [searching, setSearching] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(0);
  useEffect(() => setLive(null), [loaded]);
  const { q, page, pages, total, sims } = live ?? loaded;
  const search = (text: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const ticket = ++latest.current;
      setSearching(true);
      try {
        const { trpc } = await import('~/utils/trpc.client');
        const r = await trpc.sim.page.query({ q: text, limit: PAGE_SIZE, offset: 0 });
        if (ticket !== latest.current) return;
        setLive({
          q: text,
          page: 1,
          pages: Math.max(1, Math.ceil(r.total / PAGE_SIZE)),
          total: r.total,
          sims: r.items.map((s) => ({ id: s.id, iccid: s.iccid, mark: s.invoiceLineMark })),
        });
        const url = new URL(window.location.href);
        url.search = text ? `?q=${encodeURIComponent(text)}` : '';
        window.history.replaceState(window.history.state, '', url);
      } catch {
        // The form still works: a submit searches on the server.
      } finally {
        if (ticket === latest.current) setSearching(false);
      }
    }, 250);
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
          key={loaded.q}
          defaultValue={loaded.q}
          onChange={(e) => search(e.currentTarget.value)}
          placeholder={t.sims.searchPlaceholder}
          {...loaded.query}
          autoComplete="off"
        />
        <button className="btn" type="submit">
          {t.sims.search}
        </button>
      </Form>
      <p className="muted" aria-live="polite">
        {searching ? '…' : t.sims.count(total)}
      </p>
      {total > 0 ? (
        // Plain links carrying the search: the file downloads with or without JS, and follows a live search.
        <p>
          {t.listExport.label}:{' '}
          <a href={exportHref('csv', q)} aria-label={t.listExport.csvLabel(q)}>
            {t.listExport.csv}
          </a>{' '}
          ·{' '}
          <a href={exportHref('xlsx', q)} aria-label={t.listExport.xlsxLabel(q)}>
            {t.listExport.xlsx}
          </a>
        </p>
      ) : null}
      {sims.length === 0 ? (
        <p className="notice">
          {q ? t.sims.emptySearch : t.sims.empty} {q ? null : <Link to="/add">{t.sims.activateFirst}</Link>}
        </p>
      ) : (
        <Form method="get" action="/sims/deactivate" className="bulk-form">
          {/* @bulkDeactivate: the ticked rows go to the confirm page, which changes nothing until its POST. */}
          <div className="bulk-actions">
            <input type="hidden" name="q" value={q} />
            <input type="hidden" name="page" value={page} />
            <button
              className="btn"
              type="submit"
              formAction="/sims"
              name="all"
              value="1"
              onClick={(e) => {
                // With JS the page is ticked in place; without, the page comes back with every box ticked.
                e.preventDefault();
                e.currentTarget.form
                  ?.querySelectorAll<HTMLInputElement>('input[name="id"]')
                  .forEach((box) => (box.checked = true));
              }}
            >
              {t.bulkDeactivate.selectAll}
            </button>
            <button className="btn btn-destructive" type="submit">
              {t.bulkDeactivate.submit}
            </button>
          </div>
          <table className="sims">
            <thead>
              <tr>
                <th scope="col" className="select">
                  <span className="visually-hidden">{t.bulkDeactivate.selectAll}</span>
                </th>
                <th scope="col">{t.sims.iccid}</th>
                <th scope="col">{t.sims.mark}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.sims.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sims.map((s) => (
                <tr key={s.id}>
                  <td className="select">
                    <input
                      type="checkbox"
                      name="id"
                      value={s.id}
                      key={String(loaded.selectAll)}
                      defaultChecked={loaded.selectAll}
                      aria-label={t.bulkDeactivate.select(s.iccid)}
                    />
                  </td>
                  <td className="iccid" title={s.iccid}>
                    <span className="hide-mobile">{s.iccid}</span>
                    <span className="only-mobile" title={s.iccid}>
                      {s.iccid.slice(-8)}
                    </span>
                  </td>
                  <td title={s.mark}>{truncate(s.mark, 30)}</td>
                  <td>
                    <Link to={`/sims/${s.id}`} aria-label={t.sims.editLabel(s.iccid)}>
                      {t.sims.edit}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Form>
      )}
      {pages > 1 ? (
        <nav className="pager" aria-label={t.sims.page(page, pages)}>
          {page > 1 ? (
            <Link to={pageHref(q, page - 1)} rel="prev">
              {t.sims.previous}
            </Link>
          ) : (
            <span />
          )}
          <span>{t.sims.page(page, pages)}</span>
          {page < pages ? (
            <Link to={pageHref(q, page + 1)} rel="next">
              {t.sims.next}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </>
  );
}
