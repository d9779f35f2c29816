/** Text cut to `max` characters with an ellipsis; the full text is in the tooltip. */
export function Truncated({ text, max }: { text: string; max: number }) {
  const chars = Array.from(text);
  if (chars.length <= max) return <>{text}</>;
  return <span title={text}>{chars.slice(0, max).join('').trimEnd()}…</span>;
}
