// The rows and counts of a bulk activation: the page's server-rendered preview and result in
// app/routes/add_.bulk.tsx and, with JS, the live preview, progress and result use the same pieces. Read at a
// glance: the counts first (problems first, app/bulk/outcomes.ts), each outcome a badge (icon, word and colour),
// the rows with a problem first with their numbers in the list, and "Visa bara problem", a checkbox whose
// effect is CSS (.bulk-outcome:has(...)), so it works without JS and moves nothing above the table.
import type { ReactNode } from 'react';
import { t } from '#domain/texts/common.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import type { BulkRow } from '#app/bulk/run.ts';
import { COUNT_ORDER, isProblem, OUTCOME_TONE, problemsFirst, type ShownOutcome } from '#app/bulk/outcomes.ts';
import { Badge, ToneIcon } from '#app/components/ui/Badge.tsx';
import type { BulkActivateOutput } from '#domain/sims/schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { ShortIccid } from './IccidList.tsx';

export type { BulkRow };

const outcomeWord = (o: ShownOutcome) => (o === 'pending' ? tBulkScan.remaining : tBulkAdd.outcomes[o]);

export function BulkCounts({ counts, pending = 0 }: { counts: BulkActivateOutput['counts']; pending?: number }) {
  const all: Record<ShownOutcome, number> = { ...counts, pending };
  const shown = COUNT_ORDER.filter((o) => all[o] > 0);
  return (
    <dl className="bulk-counts" aria-label={tBulkAdd.counts}>
      {shown.map((o) => (
        <div key={o} className={`bulk-count tone-${OUTCOME_TONE[o]}`} data-outcome={o}>
          <dt>
            <ToneIcon tone={OUTCOME_TONE[o]} />
            <span>{outcomeWord(o)}</span>
          </dt>
          <dd>{all[o]}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * One line per row, the rows with a problem first; `n`: a row's number in the list (when only some rows are
 * listed; else its place here); `below(i)`: more about the list's row i under its outcome (a file row's own mark
 * and comment). `hidden`: how many rows of the list are not listed (a long list shows its problems only), said
 * above the table.
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
  const numbered = rows.map((r, i) => ({ ...r, n: r.n ?? i + 1 }));
  const problems = numbered.filter((r) => isProblem(r.outcome)).length;
  // Only when there is something to hide: a long list lists its problems only.
  const filter = problems < numbered.length;
  return (
    <>
      {hidden > 0 ? (
        <Notice className="bulk-hidden" data-testid="bulk-hidden">
          {tBulkAdd.notListed(hidden, rows.length)} {download ? tBulkAdd.allInDownload : null}
        </Notice>
      ) : null}
      {filter ? (
        <label className="bulk-filter">
          <input type="checkbox" />
          {tBulkAdd.onlyProblems}
        </label>
      ) : null}
      {filter && problems === 0 ? <p className="bulk-noproblems">{tBulkAdd.noProblems}</p> : null}
      {rows.length > 0 ? <RowsTable rows={problemsFirst(numbered)} below={below} /> : null}
    </>
  );
}

function RowsTable({ rows, below }: { rows: readonly (BulkRow & { n: number })[]; below?: (i: number) => ReactNode }) {
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
        {rows.map((r) => (
          <tr key={r.n} data-outcome={r.outcome} data-problem={isProblem(r.outcome)}>
            <td className="bulk-n">{r.n}</td>
            <td className="iccid" title={r.iccid}>
              <ShortIccid iccid={r.iccid} />
              {/* On a phone the row's number stands under its ICCID: the outcome's column has the room for its
                  badge on one line. */}
              <span className="only-mobile cell-sub">
                {tBulkAdd.row} {r.n}
              </span>
            </td>
            <td>
              <Badge tone={OUTCOME_TONE[r.outcome]}>{outcomeWord(r.outcome)}</Badge>
              {r.outcome === 'pending' ? <span className="bulk-message"> {tBulkScan.notSent}</span> : null}
              {r.message ? <span className="bulk-message"> {r.message}</span> : null}
              {below?.(r.n - 1)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
