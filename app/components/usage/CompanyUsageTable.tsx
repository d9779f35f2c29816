// The company's usage of a period as a table (/usage): a row per period and plan or country, the amounts as people
// read them (decimal units, as plans are sold), the sum at the foot. On a phone the up and down columns hide; the
// total stays.
import { tCompanyUsage } from '#domain/texts/company-usage.ts';

export type UsageTableRow = { period: string; label: string; up: string; down: string; total: string };

const c = tCompanyUsage.columns;

export function CompanyUsageTable(props: {
  caption: string;
  periodLabel: string;
  keyLabel: string;
  rows: UsageTableRow[];
  /** The sum at the foot; null where rows overlap (by tag: a SIM with two tags is in both), with why in a note. */
  total: string | null;
  cut: boolean;
}) {
  return (
    <>
      {props.cut ? <p className="muted">{tCompanyUsage.cut}</p> : null}
      <div className="table-wrap">
        <table className="usage-table">
          <caption className="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">{props.periodLabel}</th>
              <th scope="col">{props.keyLabel}</th>
              <th scope="col" className="num hide-mobile">
                {c.up}
              </th>
              <th scope="col" className="num hide-mobile">
                {c.down}
              </th>
              <th scope="col" className="num">
                {c.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr key={`${r.period} ${r.label}`}>
                <td className="usage-period">{r.period}</td>
                <td>{r.label}</td>
                <td className="num hide-mobile">{r.up}</td>
                <td className="num hide-mobile">{r.down}</td>
                <td className="num">{r.total}</td>
              </tr>
            ))}
          </tbody>
          {props.total === null ? null : (
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {tCompanyUsage.total}
                </th>
                <td className="hide-mobile" colSpan={2} />
                <td className="num">{props.total}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </>
  );
}
