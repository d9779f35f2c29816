// A paused SIM's badge (issue 40): the pause sign and the word "Pausad" on the warning tone's colours, so the state is
// never told by colour alone (the icon is decoration, aria-hidden: the word says it). Styles: .badge in bulk.css,
// .paused-badge in pause.css. An active SIM has none in the list (the list stays calm: only what differs shows).
import { tPause } from '#domain/texts/pause.ts';

export function PausedBadge({ className }: { className?: string }) {
  return (
    <span className={`badge tone-warning paused-badge${className ? ` ${className}` : ''}`} data-state="paused">
      <svg className="tone-icon" viewBox="0 0 16 16" aria-hidden="true">
        <path d="M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M6.3 5.4v5.2M9.7 5.4v5.2" />
      </svg>
      <span className="badge-text">{tPause.paused}</span>
    </span>
  );
}
