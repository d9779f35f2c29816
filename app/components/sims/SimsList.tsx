// The rows and the pager of /sims (app/routes/sims._index.tsx): each SIM with its box for the bulk selection
// (for a writer), its ICCID (the last 8 digits on a phone) and mark; the pages as plain links carrying the search.
import { Link } from '@remix-run/react';
import { pageHref } from '#app/sims/links.ts';
import { truncate } from '#app/utils/text.ts';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';

export type SimRow = { id: number; iccid: string; mark: string; legacy: boolean };

type RowsProps = {
  sims: SimRow[];
  /** A viewer gets the list without the boxes. */
  writable: boolean;
  picked: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
};

export function SimRows({ sims, writable, picked, onToggle }: RowsProps) {
  return (
    <table className="sims">
      <thead>
        <tr>
          {writable ? (
            <th scope="col" className="select">
              <span className="visually-hidden">{tBulkDeactivate.selectAll}</span>
            </th>
          ) : null}
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
            {writable ? (
              <td className="select">
                <input
                  type="checkbox"
                  name="id"
                  value={s.id}
                  checked={picked.has(s.id)}
                  onChange={(e) => onToggle(s.id, e.currentTarget.checked)}
                  aria-label={tBulkDeactivate.select(s.iccid)}
                />
              </td>
            ) : null}
            <td className="iccid" title={s.iccid}>
              <span className="hide-mobile">{s.iccid}</span>
              <span className="only-mobile" title={s.iccid}>
                {s.iccid.slice(-8)}
              </span>
            </td>
            <td title={s.mark}>{truncate(s.mark, 30)}</td>
            <td>
              <Link
                to={`/sims/${s.id}`}
                aria-label={writable ? t.sims.editLabel(s.iccid) : tCompany.viewLabel(s.iccid)}
              >
                {writable ? t.sims.edit : tCompany.view}
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type PagerProps = {
  q: string;
  page: number;
  pages: number;
  /** false: past a search's count cap, the number of pages is "more than" (docs/decisions/019). */
  exact: boolean;
  /** This page is full: past the cap, a next page may exist. */
  full: boolean;
};

export function SimsPager({ q, page, pages, exact, full }: PagerProps) {
  if (pages <= 1 && exact) return null;
  return (
    <nav className="pager" aria-label={t.sims.page(page, pages, exact)}>
      {page > 1 ? (
        <Link to={pageHref(q, page - 1)} rel="prev">
          {t.sims.previous}
        </Link>
      ) : (
        <span />
      )}
      <span>{t.sims.page(page, pages, exact)}</span>
      {page < pages || (!exact && full) ? (
        <Link to={pageHref(q, page + 1)} rel="next">
          {t.sims.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
