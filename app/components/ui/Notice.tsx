// A notice: a few words on the colours of its kind (base.css: `notice`, `notice error|success|warning|info`), with
// the kind's icon before them (ToneIcon, aria-hidden) so the kind is not told by colour alone; the icon's place is
// in details.css. In every page's JavaScript (the layout's error and step-up notices use it): keep it small.
import type { ReactNode } from 'react';
import { ToneIcon } from '#app/components/ui/ToneIcon.tsx';

/** Left out: the plain notice (information's colours and icon, class `notice` alone). */
export type NoticeKind = 'info' | 'success' | 'warning' | 'error';

export function Notice({
  kind,
  as: Tag = 'p',
  className,
  children,
  ...attrs
}: {
  kind?: NoticeKind;
  /** A <div> when it holds paragraphs or buttons. */
  as?: 'p' | 'div';
  /** More classes after the notice's own. */
  className?: string;
  role?: 'alert' | 'status';
  id?: string;
  'data-testid'?: string;
  children: ReactNode;
}) {
  return (
    <Tag className={`notice${kind ? ` ${kind}` : ''}${className ? ` ${className}` : ''}`} {...attrs}>
      <ToneIcon tone={kind === 'success' ? 'ok' : (kind ?? 'info')} />
      {children}
    </Tag>
  );
}

// The empty list's block rides in the layout's chunk with the notice: a chunk of its own would be one more request
// (and more bytes) on /sims and the other lists.
export { EmptyState } from '#app/components/ui/EmptyState.tsx';
