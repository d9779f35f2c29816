// How wide a page's content column is: a table page wide (about 1,200 px), a form page narrow, sign-in narrower.
// A route says so with `export const handle = { width: 'narrow' }`; the ones that do not are listed here, so the
// width is one decision per page and no page sets its own column in CSS.
export type PageWidth = 'wide' | 'form' | 'narrow';

/** Route ids (Remix flat routes) whose page is mostly a table. */
const WIDE = new Set([
  'routes/sims._index',
  'routes/add_.bulk_.result',
  'routes/admin.audit',
  'routes/admin.companies._index',
  'routes/admin.companies.$companyId._index',
  'routes/company._index',
  'routes/company.activity',
  'routes/company.users._index',
  'routes/company.api-keys._index',
  'routes/company.webhooks._index',
  'routes/security_.sessions',
]);

/** Signing in: one field or one button on a card. */
const NARROW = new Set([
  'routes/login',
  'routes/login_.passkey',
  'routes/auth.magic',
  'routes/auth.sso.continue',
  'routes/auth.sso.callback',
  'routes/auth.sso.step-up',
  'routes/security.confirm',
]);

function isWidth(v: unknown): v is PageWidth {
  return v === 'wide' || v === 'form' || v === 'narrow';
}

/**
 * A page's own skip link, before "Hoppa till innehållet": `export const handle = { skip: { href, label } }` (/sims:
 * "Hoppa till listan", issue 41). The deepest route's.
 */
export function pageSkip(matches: ReadonlyArray<{ handle?: unknown }>): { href: string; label: string } | null {
  for (const { handle } of [...matches].reverse()) {
    const skip = (handle as { skip?: { href?: unknown; label?: unknown } } | undefined)?.skip;
    if (typeof skip?.href === 'string' && typeof skip.label === 'string') return { href: skip.href, label: skip.label };
  }
  return null;
}

/** The width of the deepest route that names one; a page not listed is a form page. */
export function pageWidth(matches: ReadonlyArray<{ id: string; handle?: unknown }>): PageWidth {
  for (const { id, handle } of [...matches].reverse()) {
    const named = (handle as { width?: unknown } | undefined)?.width;
    if (isWidth(named)) return named;
    if (WIDE.has(id)) return 'wide';
    if (NARROW.has(id)) return 'narrow';
    if (id !== 'root') return 'form';
  }
  return 'form';
}
