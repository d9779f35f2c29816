// Display helpers shared by the screens.
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

const dateFormat = new Intl.DateTimeFormat('sv-SE', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Europe/Stockholm',
});
export function formatDateTime(iso: string): string {
  return dateFormat.format(new Date(iso));
}
