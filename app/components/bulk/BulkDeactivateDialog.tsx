// Deactivate many, with JS: the confirm dialog of /sims. It states the count and lists the ICCIDs
// (the last 8 digits on phones), legacy SIMs as refused; its form POSTs the ids to /sims/deactivate, whose action
// answers with the same per-row result page as without JS. "All matching the search" is resolved by the server's
// own procedure (sim.matching: the search's first BULK_SELECT_MAX), never by counts the page holds.
import { DeactivateIccidsForm, ReadyIccids, RefusedIccids } from './IccidList.tsx';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import type { MatchingInput } from '#domain/sims/schemas.ts';

export type BulkRow = { id: number; iccid: string; legacy: boolean };
/** "All that match": the list's search, with its tags and state. */
type MatchingSelection = MatchingInput & { q: string };

/** What the dialog is asked to deactivate: ticked rows of the page, or every SIM matching a search (and its filter). */
export type BulkSelection = { kind: 'rows'; rows: BulkRow[] } | ({ kind: 'matching' } & MatchingSelection);

type Resolved = { rows: BulkRow[]; total: number; exact: boolean };

export function BulkDeactivateDialog({ selection, onClose }: { selection: BulkSelection; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [resolved, setResolved] = useState<Resolved | 'loading' | 'failed'>(() =>
    selection.kind === 'rows' ? { rows: selection.rows, total: selection.rows.length, exact: true } : 'loading',
  );

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // The safe choice first (showModal alone would focus the list, the first focusable element).
    cancel.current?.focus();
  }, []);

  useEffect(() => {
    if (selection.kind !== 'matching') return;
    let current = true;
    void (async () => {
      try {
        const { trpc } = await import('#app/utils/trpc.client.ts');
        const r = await trpc.sim.matching.query({ q: selection.q, tag: selection.tag, status: selection.status });
        if (current) setResolved({ rows: r.rows, total: r.total, exact: r.exact });
      } catch {
        if (current) setResolved('failed');
      }
    })();
    return () => {
      current = false;
    };
  }, [selection]);

  // The modal dialog makes the page behind it inert; Tab is also kept going round inside the dialog.
  const trap = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !dialog.current) return;
    const focusable = [
      ...dialog.current.querySelectorAll<HTMLElement>('button:not([disabled]), [href], [tabindex="0"]'),
    ];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const ready = typeof resolved === 'object' ? resolved.rows.filter((r) => !r.legacy) : [];
  const refused = typeof resolved === 'object' ? resolved.rows.filter((r) => r.legacy) : [];
  return (
    <dialog
      ref={dialog}
      className="bdsel-dialog"
      aria-labelledby="bdsel-title"
      aria-describedby="bdsel-text"
      onClose={onClose}
      onKeyDown={trap}
    >
      <h2 id="bdsel-title">{tBulkDeactivate.title}</h2>
      <div id="bdsel-text">
        {selection.kind === 'matching' ? <p className="muted">{tBulkDeactivate.matchingFor(selection)}</p> : null}
        {resolved === 'loading' ? <p role="status">{tBulkDeactivate.loading}</p> : null}
        {resolved === 'failed' ? (
          <Notice kind="error" role="alert">
            {tBulkDeactivate.loadFailed}
          </Notice>
        ) : null}
        {typeof resolved === 'object' && (!resolved.exact || resolved.total > BULK_SELECT_MAX) ? (
          <Notice>{tBulkDeactivate.capped(resolved.total, BULK_SELECT_MAX, resolved.exact)}</Notice>
        ) : null}
        {typeof resolved === 'object' ? (
          <p>{ready.length > 0 ? tBulkDeactivate.willDeactivate(ready.length) : tBulkDeactivate.none}</p>
        ) : null}
      </div>
      {ready.length > 0 || refused.length > 0 ? (
        // A long list scrolls inside the dialog; focusable, so the keyboard can scroll it too.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region
        <div className="bdsel-scroll" tabIndex={0} role="region" aria-label={tBulkDeactivate.listLabel}>
          {ready.length > 0 ? <ReadyIccids rows={ready} className="bdsel-ready" /> : null}
          {refused.length > 0 ? (
            <>
              <h3>{tBulkDeactivate.refusedHeading}</h3>
              <RefusedIccids rows={refused} />
            </>
          ) : null}
        </div>
      ) : null}
      <DeactivateIccidsForm
        action="/sims/deactivate"
        ready={ready}
        refused={refused}
        cancel={
          <button ref={cancel} className="btn" type="button" onClick={() => dialog.current?.close()}>
            {tBulkDeactivate.cancel}
          </button>
        }
      />
    </dialog>
  );
}
