// A trail of audit rows as a table, newest first, and its keyset pager: /company/activity (a company's own) and
// /admin/audit (every company's, with a company column). On a phone the kind column is hidden.
import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { tCompany } from '#domain/texts/company.ts';
import type { AuditKind } from '#domain/companies/kinds.ts';

export type ActivityRow = { id: number; when: string; who: string; kind: AuditKind; what: string };
type Labels = { when: string; who: string; kind: string; what: string };

export function ActivityTable<T extends ActivityRow>(props: {
  caption: string;
  labels: Labels;
  items: T[];
  className?: string;
  /** A column after the time (the admin's: whose company). */
  company?: { header: string; cell: (row: T) => ReactNode };
}) {
  const { caption, labels, items, company } = props;
  return (
    <div className="table-wrap">
      <table className={['company-activity', props.className].filter(Boolean).join(' ')}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{labels.when}</th>
            {company ? <th scope="col">{company.header}</th> : null}
            <th scope="col">{labels.who}</th>
            <th scope="col" className="hide-mobile">
              {labels.kind}
            </th>
            <th scope="col">{labels.what}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.id} data-kind={i.kind}>
              <td className="company-when">{i.when}</td>
              {company ? <td className="audit-company">{company.cell(i)}</td> : null}
              <td>{i.who}</td>
              <td className="hide-mobile company-kind">{tCompany.kinds[i.kind]}</td>
              <td className="company-what">{i.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "‹ Senaste" and "Äldre ›" of a trail paged by keyset (before = the last id seen), when there is somewhere to go. */
export function KeysetPager(props: { label: string; newest: string | null; older: string | null }) {
  if (!props.newest && !props.older) return null;
  return (
    <nav className="pager" aria-label={props.label}>
      {props.newest ? <Link to={props.newest}>{tCompany.newest}</Link> : <span />}
      {props.older ? <Link to={props.older}>{tCompany.older}</Link> : <span />}
    </nav>
  );
}
