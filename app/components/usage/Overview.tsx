// The home page's overview of the company (issue 39): active SIMs, usage today and this month against last month,
// the ten SIMs using most this month, the silent ones, the latest bulk runs; each a link into the list filtered so
// (the /sims address' sort and filter), or to /usage. Plain HTML from the loader's figures: no script, light on a
// phone on a slow network.
import { Link } from '@remix-run/react';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';

export type OverviewView = {
  activeSims: string;
  today: string;
  thisMonth: string;
  lastMonth: string;
  lastMonthToDate: string;
  silent: string;
  top: Array<{ id: number; iccid: string; plan: string; used: string }>;
  bulk: Array<{ key: string; when: string; what: string; done: string }>;
  asOf: string | null;
  todayLink: string;
  monthLink: string;
  /** The owner's activity trail of bulk runs, or null for the others. */
  bulkLink: string | null;
};

/** The /sims addresses the overview links to (the list's view: domain/sims/view.ts). */
export const SIMS_LINKS = {
  silent24h: '/sims?filter=silent24h',
  silent7d: '/sims?filter=silent7d',
  never: '/sims?filter=never',
  over80: '/sims?filter=over80',
  byUsage: '/sims?sort=usage-desc',
} as const;

const o = tCompanyUsage.overview;

export function Overview({ view }: { view: OverviewView }) {
  return (
    <section className="overview" aria-labelledby="overview-title">
      <h2 id="overview-title">{o.title}</h2>
      {view.asOf ? <p className="muted">{tCompanyUsage.asOf(view.asOf)}</p> : null}
      <ul className="overview-figures">
        <li>
          <Link to="/sims">
            <span className="overview-label">{o.activeSims}</span>
            <span className="overview-figure">{view.activeSims}</span>
          </Link>
        </li>
        <li>
          <Link to={view.todayLink}>
            <span className="overview-label">{o.today}</span>
            <span className="overview-figure">{view.today}</span>
          </Link>
        </li>
        <li>
          <Link to={view.monthLink}>
            <span className="overview-label">{o.thisMonth}</span>
            <span className="overview-figure">{view.thisMonth}</span>
            <span className="overview-note">
              {o.lastMonth(view.lastMonth)}, {o.lastMonthToDate(view.lastMonthToDate)}
            </span>
          </Link>
        </li>
        <li>
          <Link to={SIMS_LINKS.silent24h}>
            <span className="overview-label">{o.silent}</span>
            <span className="overview-figure">{view.silent}</span>
          </Link>
        </li>
      </ul>
      <ul className="overview-links">
        <li>
          <Link to={SIMS_LINKS.over80}>{o.over80}</Link>
        </li>
        <li>
          <Link to={SIMS_LINKS.silent7d}>{o.silent7d}</Link>
        </li>
        <li>
          <Link to={SIMS_LINKS.never}>{o.never}</Link>
        </li>
        <li>
          <Link to="/usage">{o.usagePage}</Link>
        </li>
      </ul>
      <h3>{o.top}</h3>
      {view.top.length === 0 ? (
        <p className="muted">{o.topEmpty}</p>
      ) : (
        <div className="table-wrap">
          <table className="overview-top">
            <caption className="visually-hidden">{o.top}</caption>
            <thead>
              <tr>
                <th scope="col">{o.columns.iccid}</th>
                <th scope="col" className="hide-mobile">
                  {o.columns.plan}
                </th>
                <th scope="col" className="num">
                  {o.columns.used}
                </th>
              </tr>
            </thead>
            <tbody>
              {view.top.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/sims/${s.id}`} className="iccid">
                      {s.iccid}
                    </Link>
                  </td>
                  <td className="hide-mobile">{s.plan}</td>
                  <td className="num">{s.used}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link to={SIMS_LINKS.byUsage}>{o.topAll}</Link>
      </p>
      <h3>{o.bulk}</h3>
      {view.bulk.length === 0 ? (
        <p className="muted">{o.bulkEmpty}</p>
      ) : (
        <ul className="overview-bulk">
          {view.bulk.map((b) => (
            <li key={b.key}>
              <span className="overview-when">{b.when}</span> {b.what}: {b.done}
            </li>
          ))}
        </ul>
      )}
      {view.bulkLink ? (
        <p>
          <Link to={view.bulkLink}>{o.bulkAll}</Link>
        </p>
      ) : null}
    </section>
  );
}
