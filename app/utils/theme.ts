// The colour theme is a cookie, so the server renders the right one and the switch works without JS.
export type Theme = 'dark' | 'light';

export function readTheme(cookieHeader: string | null): Theme {
  return /(?:^|;\s*)theme=light(?:;|$)/.test(cookieHeader ?? '') ? 'light' : 'dark';
}

export function themeCookie(theme: Theme): string {
  return `theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
