// "Nothing here yet": what stands where a list would, when it is empty (no SIMs, no search hits, no keys, no
// sessions...): a short sentence and, optionally, what to do about it (a link or a button) on a line of its own.
// Styled in app/styles/details.css (.empty-state).
import type { ReactNode } from 'react';

export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <p>{children}</p>
      {action ? <p className="empty-state-action">{action}</p> : null}
    </div>
  );
}
