// /add/bulk with JavaScript: what the live view shows. The state and its effects are
// useBulkLive's (the offline queue, the live preview, the activation in chunks); this component is the row of
// scan buttons and notices under the list, and the preview, progress or result in the page's slot below the list.
// Without JS it renders no control (only the scan button's unseen place) and the page is the plain three-step form.
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { isRunning, type Plan, type View } from '#app/bulk/live-state.ts';
import { countRows, shownRows, startRows, type BulkRow } from '#app/bulk/run.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { BulkFileResultDownload, resultPairs } from './BulkFileField.tsx';
import { BulkCounts, BulkRows } from './BulkOutcome.tsx';
import { BulkScan } from './BulkScan.tsx';
import type { BulkLiveHandle } from './useBulkLive.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

type Props = {
  live: BulkLiveHandle;
  /** The element under the list that shows the live preview, progress and result. */
  slot: HTMLElement | null;
};

export function BulkLive({ live, slot }: Props) {
  const { state, hydrated, submitting } = live;
  // Until JS has arrived, the scan button's place, unseen, so nothing moves when it comes; where scripting is off
  // it takes no room (.js-placeholder).
  if (!hydrated)
    return (
      <div className="bulklive-pending js-placeholder" aria-hidden="true">
        <div className="bulklive">
          <div className="bulkscan-bar">
            <span className="btn">{tBulkScan.open}</span>
          </div>
        </div>
      </div>
    );
  const { view, offline, waiting, backPrompt, updating } = state;
  // While the page's own form posts, its answer takes the place (a running activation stays).
  const shown = submitting && !isRunning(view) ? null : view;
  return (
    <div className="bulklive">
      <BulkScan
        onCode={live.onCode}
        actions={
          live.listSize > 0 || waiting > 0 ? (
            <button type="button" className="btn" onClick={live.clear}>
              {tBulkScan.clear}
            </button>
          ) : null
        }
        notices={
          <>
            {offline ? (
              <Notice className="bulklive-offline" role="status">
                {waiting > 0 ? tBulkScan.offline(waiting) : tBulkScan.offlineNothing}
              </Notice>
            ) : waiting > 0 ? (
              <Notice className="bulklive-waiting" role="status">
                {tBulkScan.waiting(waiting)}
              </Notice>
            ) : null}
            {backPrompt && !offline ? (
              <p className="bulklive-back">
                <button type="button" className="btn btn-primary" onClick={live.send}>
                  {tBulkScan.back(waiting > 0 ? waiting : live.listSize)}
                </button>
              </p>
            ) : null}
          </>
        }
      />
      {slot && shown
        ? createPortal(
            <LiveView
              view={shown}
              updating={updating}
              onActivate={(rows, plan) => void live.activate(rows, plan)}
              onAgain={live.again}
            />,
            slot,
          )
        : null}
    </div>
  );
}

function LiveView({
  view,
  updating,
  onActivate,
  onAgain,
}: {
  view: View;
  updating: boolean;
  onActivate: (rows: BulkRow[], plan: Plan) => void;
  onAgain: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const finished = view.kind === 'run' && view.state !== 'running';
  useEffect(() => {
    if (finished) headingRef.current?.focus();
  }, [finished]);

  if (view.kind === 'idle') return null;
  if (view.kind === 'message')
    return (
      <section className="bulk-outcome bulklive-view" aria-live="polite">
        <Notice>{view.text}</Notice>
      </section>
    );
  if (view.kind === 'preview') {
    const ready = view.answer.counts.ready;
    return (
      <section className="bulk-outcome bulklive-view" aria-labelledby="bulk-live-title" aria-busy={updating}>
        <h2 id="bulk-live-title">{tBulkAdd.previewTitle}</h2>
        <BulkCounts counts={view.answer.counts} />
        <p className="muted" role="status">
          {updating ? tBulkScan.updating : tBulkAdd.previewNote}
        </p>
        {ready > 0 ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={updating}
            onClick={() => onActivate(startRows(view.list), view.plan)}
          >
            {tBulkAdd.confirm(ready)}
          </button>
        ) : (
          <Notice>{tBulkAdd.nothingReady}</Notice>
        )}
        <ShownRows rows={view.answer.results} />
      </section>
    );
  }
  const { counts, pending, done } = countRows(view.rows);
  const total = view.rows.length;
  return (
    <section className="bulk-outcome bulklive-view" aria-labelledby="bulk-live-title">
      <h2 id="bulk-live-title" ref={headingRef} tabIndex={-1}>
        {view.state === 'running' ? tBulkScan.progressLabel : tBulkAdd.resultTitle}
      </h2>
      {view.state === 'running' ? (
        <div className="bulklive-progress">
          <progress
            value={done}
            max={total}
            aria-label={tBulkScan.progressLabel}
            aria-valuenow={done}
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuetext={tBulkScan.progress(done, total)}
          />
          <p role="status">{tBulkScan.progress(done, total)}</p>
        </div>
      ) : null}
      {view.state === 'stopped' ? (
        <Notice kind="error" as="div" role="alert">
          <p>{view.problem ?? tBulkScan.stopped(done, pending)}</p>
          <button type="button" className="btn btn-primary" onClick={() => onActivate(view.rows, view.plan)}>
            {tBulkScan.retry}
          </button>
        </Notice>
      ) : null}
      <BulkCounts counts={counts} pending={pending} />
      {view.state === 'finished' ? (
        <div className="bulk-toolbar">
          <BulkFileResultDownload pairs={resultPairs(view.rows)} />
          <button type="button" className="btn" onClick={onAgain}>
            {tBulkAdd.again}
          </button>
        </div>
      ) : null}
      <ShownRows rows={view.rows} />
    </section>
  );
}

/** The rows of the live preview or result: all of a short list, the problems of a long one (shownRows). */
function ShownRows({ rows }: { rows: readonly BulkRow[] }) {
  const shown = shownRows(rows);
  return <BulkRows rows={shown.rows} hidden={shown.hidden} />;
}
