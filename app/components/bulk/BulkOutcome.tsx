// The rows and counts of a bulk activation: the page's server-rendered preview and result in
// app/routes/add_.bulk.tsx and, with JS, the live preview, progress and result use the same pieces.
import type { ReactNode } from 'react';
import { t } from '#domain/texts/common.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import type { BulkRow } from '#app/bulk/run.ts';
import { BULK_ACTIVATE_OUTCOMES } from '#domain/sims/limits.ts';
import type { BulkActivateOutput } from '#domain/sims/schemas.ts';

export type { BulkRow };

export function BulkCounts({ counts, pending = 0 }: { counts: BulkActivateOutput['counts']; pending?: number }) {
  const shown = BULK_ACTIVATE_OUTCOMES.filter((o) => counts[o] > 0);
  return (
    <dl className="bulk-counts" aria-label={tBulkAdd.counts}>
      {shown.map((o) => (
        <div key={o} data-outcome={o}>
          <dt>{tBulkAdd.outcomes[o]}</dt>
          <dd>{counts[o]}</dd>
        </div>
      ))}
      {pending > 0 ? (
        <div data-outcome="pending">
          <dt>{tBulkScan.remaining}</dt>
          <dd>{pending}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * One line per row; `n`: a row's number in the list (when only some rows are listed; else its place here);
 * `below(i)`: more about the list's row i under its outcome (a file row's own mark and comment). `hidden`: how many
 * rows of the list are not listed (a long list shows its problems only), said above the table.
 */
export function BulkRows({
  rows,
  below,
  hidden = 0,
  download = false,
}: {
  rows: readonly (BulkRow & { n?: number })[];
  below?: (i: number) => ReactNode;
  hidden?: number;
  download?: boolean;
}) {
  return (
    <>
      {hidden > 0 ? (
        <p className="notice bulk-hidden" data-testid="bulk-hidden">
          {tBulkAdd.notListed(hidden, rows.length)} {download ? tBulkAdd.allInDownload : null}
        </p>
      ) : null}
      {rows.length > 0 ? <RowsTable rows={rows} below={below} /> : null}
    </>
  );
}

function RowsTable({ rows, below }: { rows: readonly (BulkRow & { n?: number })[]; below?: (i: number) => ReactNode }) {
  return (
    <table className="bulk-rows">
      <thead>
        <tr>
          <th scope="col">{tBulkAdd.row}</th>
          <th scope="col">{t.sims.iccid}</th>
          <th scope="col">{tBulkAdd.outcome}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={r.n ?? i + 1} data-outcome={r.outcome}>
            <td>{r.n ?? i + 1}</td>
            <td className="iccid" title={r.iccid}>
              <span className="hide-mobile">{r.iccid}</span>
              <span className="only-mobile">{r.iccid.slice(-8)}</span>
            </td>
            <td>
              <OutcomeText outcome={r.outcome} message={r.message} />
              {below?.((r.n ?? i + 1) - 1)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OutcomeText({ outcome, message }: { outcome: BulkRow['outcome']; message?: string }) {
  return (
    <>
      <strong>{outcome === 'pending' ? tBulkScan.remaining : tBulkAdd.outcomes[outcome]}</strong>
      {outcome === 'pending' ? <span className="bulk-message"> {tBulkScan.notSent}</span> : null}
      {message ? <span className="bulk-message"> {message}</span> : null}
    </>
  );
}
