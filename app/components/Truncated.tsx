/** Longer than this without a space, a token may be broken anywhere in a table cell; shorter ones stay whole. */
const LONG_TOKEN = 20;

/**
 * Text cut to `max` characters with an ellipsis; the full text is in the tooltip. A value with a token too long to
 * keep whole (a 200-character name without spaces) is marked `long-value`, so a narrow table may break it
 * anywhere, while an ordinary address beside it keeps its column (not "admin@demo.s|e").
 */
export function Truncated({ text, max }: { text: string; max: number }) {
  const chars = Array.from(text);
  const cut = chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
  const long = cut.split(/\s+/).some((token) => Array.from(token).length > LONG_TOKEN);
  if (cut === text && !long) return <>{text}</>;
  return (
    <span title={cut === text ? undefined : text} className={long ? 'long-value' : undefined}>
      {cut}
    </span>
  );
}
