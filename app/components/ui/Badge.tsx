// The portal's status badge: a small pill with an icon and a word, coloured from the status tokens (tokens.css:
// --ok-*, --warning-*, --error-*, --info-*, --neutral-*), so a status is never told by colour alone. The icon is
// decoration (aria-hidden): the text says it. Styles in app/styles/bulk.css (.badge, .tone-*). The icons are
// ToneIcon.tsx's, shared with the notice.
import type { ReactNode } from 'react';
import { ToneIcon, type Tone } from '#app/components/ui/ToneIcon.tsx';

export { ToneIcon, type Tone };

/** A status as a pill: the tone's icon and colour, and the words (always shown). */
export function Badge({ tone, children, className }: { tone: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={`badge tone-${tone}${className ? ` ${className}` : ''}`} data-tone={tone}>
      <ToneIcon tone={tone} />
      <span className="badge-text">{children}</span>
    </span>
  );
}
