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

const dayFormat = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'short', timeZone: 'Europe/Stockholm' });
/** The calendar day in Stockholm (2026-11-23). */
export function formatDate(date: Date): string {
  return dayFormat.format(date);
}
