// The ICCIDs a bulk deactivation will act on, as the /sims dialog (with JS) and the /sims/deactivate page
// (without) both list them: the ones to deactivate, the legacy ones refused with the reason, and the form
// that sends them.
import { Form } from '@remix-run/react';
import type { ReactNode } from 'react';
import { tBulkDeactivate } from '#domain/texts/bulk-deactivate.ts';

type Listed = { id: number; iccid: string };

/**
 * An ICCID in full, or on a phone its last 8 digits after an ellipsis, so it reads as cut, not as a number of its own
 * (the full one in its title).
 */
export function ShortIccid({ iccid }: { iccid: string }) {
  return (
    <>
      <span className="hide-mobile">{iccid}</span>
      <span className="only-mobile" title={iccid}>
        {/* Only what is cut gets the ellipsis: a typo of 3 digits is shown as it is. */}
        {iccid.length > 8 ? <span aria-hidden="true">…</span> : null}
        {iccid.slice(-8)}
      </span>
    </>
  );
}

/** The SIMs that will be deactivated, one a line. */
export function ReadyIccids({ rows, className }: { rows: Listed[]; className?: string }) {
  return (
    <ul className={className ? `bulk-list ${className}` : 'bulk-list'}>
      {rows.map((s) => (
        <li key={s.id} className="iccid">
          <ShortIccid iccid={s.iccid} />
        </li>
      ))}
    </ul>
  );
}

/** The legacy SIMs, which are refused, each with the reason. */
export function RefusedIccids({ rows }: { rows: Listed[] }) {
  return (
    <ul className="bulk-list bulk-refused">
      {rows.map((s) => (
        <li key={s.id}>
          <span className="iccid">
            <ShortIccid iccid={s.iccid} />
          </span>{' '}
          – {tBulkDeactivate.outcomes.legacy}
        </li>
      ))}
    </ul>
  );
}

/** Posts every listed id, with the way back beside the button (shown when any SIM will be deactivated). */
export function DeactivateIccidsForm({
  ready,
  refused,
  cancel,
  action,
}: {
  ready: Listed[];
  refused: Listed[];
  cancel: ReactNode;
  action?: string;
}) {
  return (
    <Form method="post" action={action} className="actions">
      {/* The legacy ones go too: the result page answers each with its own outcome. */}
      {[...ready, ...refused].map((s) => (
        <input key={s.id} type="hidden" name="id" value={s.id} />
      ))}
      {cancel}
      {ready.length > 0 ? (
        <button className="btn btn-destructive" type="submit">
          {tBulkDeactivate.confirm(ready.length)}
        </button>
      ) : null}
    </Form>
  );
}
