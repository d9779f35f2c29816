// The status icons, drawn once: the status badge (Badge.tsx) and the notice (Notice.tsx) show them beside their
// words, so a status or a notice's kind is never told by colour alone. Decoration (aria-hidden): the text says it.
// Styles in app/styles/bulk.css (.tone-icon: 1em square, stroked in the text's colour).

export type Tone = 'ok' | 'warning' | 'error' | 'info' | 'neutral';

// One 16x16 drawing per tone: a check, a triangle with "!", a cross, an "i", a clock.
const PATHS: Record<Tone, string> = {
  ok: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M5 8.3l2 2l4-4.6',
  warning: 'M8 1.8L15 14H1ZM8 6.2v3.6M8 11.8v.1',
  error: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M5.6 5.6l4.8 4.8M10.4 5.6l-4.8 4.8',
  info: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M8 7.2v4.2M8 4.7v.1',
  neutral: 'M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13M8 4.5V8l2.4 1.6',
};

/** The tone's icon alone (for a badge, a notice, a count tile or a heading beside a word that says the status). */
export function ToneIcon({ tone }: { tone: Tone }) {
  return (
    <svg className="tone-icon" viewBox="0 0 16 16" aria-hidden="true">
      <path d={PATHS[tone]} />
    </svg>
  );
}
