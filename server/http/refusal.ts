// A request refused before any handler, or a failure of one, as a browser's navigation sees it (a small page in
// Swedish) or as a fetch() or API client does (JSON { error, issues }).
import type { Request, Response } from 'express';
import { t } from '#domain/texts/common.ts';

/** A browser's navigation (a link, a form without JS) as opposed to fetch() or an API client, on any path. */
export function isNavigation(req: { get: (name: string) => string | undefined }): boolean {
  const mode = req.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (req.get('accept') ?? '').includes('text/html');
}

/** A browser navigation to a page (not an /api path: those answer JSON, but for the downloads). */
export function wantsPage(req: Request): boolean {
  if (/^\/api(\/|$)/i.test(req.path)) return false;
  return isNavigation(req);
}

/** A small standalone page (no Remix), styled by the CSP nonce of this response (a Response, or the nonce). */
export function plainPage(res: Response | string, title: string, body: string): string {
  const value = typeof res === 'string' ? res : res.locals.cspNonce;
  const nonce = typeof value === 'string' && value ? ` nonce="${value}"` : '';
  return `<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style${nonce}>body{font-family:system-ui,sans-serif;background:#0f1115;color:#e8eaef;padding:2rem}a{color:#5b9dff}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

/**
 * A refusal as a page for a browser's navigation: its status and headers (Retry-After of a 503), the Swedish message
 * and a link to try again. The answer of the one translation (server/http/answer.ts httpError).
 */
export function sendErrorPage(
  res: Response,
  answer: { status: number; headers: Record<string, string>; body: { error: string } },
): void {
  const title = answer.status === 503 ? t.errors.databaseDownTitle : t.refused.title;
  res
    .status(answer.status)
    .set({ ...answer.headers, 'Cache-Control': 'no-store' })
    .type('html')
    .send(plainPage(res, title, `<p>${answer.body.error}</p><p><a href="">${t.errors.retry}</a></p>`));
}

/** Refuses a request before any handler: JSON { error, issues } or, for a browser navigation, a page. */
export function refuse(req: Request, res: Response, status: number, message: string): void {
  res.status(status).set('Cache-Control', 'no-store');
  if (wantsPage(req)) {
    res.type('html').send(plainPage(res, t.refused.title, `<p>${message}</p><p><a href="/">${t.refused.back}</a></p>`));
  } else {
    res.json({ error: message, issues: [] });
  }
}
