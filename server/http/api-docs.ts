// GET /api/docs: an interactive reference of GET /api/openapi.json (Scalar's standalone bundle, served by the
// portal itself from node_modules: no CDN, no font or script from elsewhere), open to anyone like the document.
// The page has its own Content-Security-Policy, stricter than the portal's in all but styles: scripts only from
// the portal (the bundle and a small start script, both files: no inline script, no eval), requests only to the
// portal ("Try it" calls the REST paths with the reader's own API key: same origin), nothing else from anywhere;
// but inline styles, which the bundle's Vue components, themes and toasts write as <style> elements and style
// attributes without a nonce (on this page only: the portal's pages keep their nonce-only styles).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express } from 'express';
import type { Config } from '#server/config.ts';
import { encodingFor } from './encoding.ts';
import { madeOnce, sendMadeOnce, type MadeOnce } from './made-once.ts';

// The package exports neither its package.json nor its browser build: found beside its main file (dist/index.js).
const SCALAR_DIST = path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference'));
const SCALAR_VERSION = (
  JSON.parse(readFileSync(path.join(SCALAR_DIST, '../package.json'), 'utf8')) as { version: string }
).version;
/** The bundle's URL names its version: cached for a year, a new version is a new URL. */
export const API_DOCS_BUNDLE = `/api/docs/scalar-${SCALAR_VERSION}.js`;

/**
 * The start script, run before the bundle: Zod inside it (Scalar validates its configuration) would try
 * `Function('')` once to see whether it may compile its parsers, a refused eval under the page's policy; told to
 * go without. Then, once the bundle has run, Scalar reads the document: dark by default, without its fonts,
 * telemetry, AI agent, MCP and developer tools (all of them elsewhere), every tag open.
 */
const START = `globalThis.__zod_globalConfig = { jitless: true };
document.addEventListener('DOMContentLoaded', () => Scalar.createApiReference('#reference', ${JSON.stringify({
  url: '/api/openapi.json',
  darkMode: true,
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  documentDownloadType: 'json',
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  defaultOpenAllTags: true,
  authentication: { preferredSecurityScheme: 'apiKey' },
  persistAuth: false,
})}));
`;
const START_URL = `/api/docs/start-${createHash('sha256').update(START).digest('hex').slice(0, 12)}.js`;

const YEAR = 'public, max-age=31536000, immutable';
/** The bundle's and the start script's headers: a new version is a new URL. */
const SCRIPT = { 'Cache-Control': YEAR, 'Content-Type': 'text/javascript; charset=utf-8' };

/** The page, the same for everyone: no session, no nonce, nothing of the request in it. */
const PAGE = `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API-referens – SIM-portalen</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
/* The portal's own fonts (outside Scalar's layers, so they win over its theme's Inter and JetBrains Mono). */
:root{--scalar-font:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;
--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace}
/* Scalar's dark theme draws its faint text (search placeholder, client tabs) below WCAG AA contrast: the portal's
   muted grey instead. */
.dark-mode{--scalar-color-3:#a3aab8}
body{margin:0;background:#0f1115;color:#e8eaef;font-family:var(--scalar-font)}
/* A phone's header names the operation in view on one line: a long summary is cut, not scrolled sideways. */
#reference header>span.whitespace-nowrap{min-width:0;overflow:hidden;text-overflow:ellipsis}
/* A heading's copy-link button (shown on hover) hangs a few pixels past a phone's edge: clipped, no sideways scroll. */
#reference{overflow-x:clip}
/* A tag's card of operations (and the webhook events') grows with its list instead of scrolling inside itself (a region that
   scrolls must be reachable by keyboard: axe's scrollable-region-focusable; its items are not focusable). */
#reference .endpoints-card>.custom-scroll,#reference .endpoints{max-height:none;overflow:visible}
noscript p{max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}noscript a{color:#5b9dff}
</style>
</head>
<body>
<noscript><p>API-referensen behöver JavaScript. Utan det finns API:ets beskrivning som OpenAPI-dokument:
<a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
<!-- Not id="api-reference": the bundle mounts a second reference, unconfigured, on an element of that id. -->
<div id="reference"></div>
<script src="${START_URL}"></script>
<script src="${API_DOCS_BUNDLE}"></script>
</body>
</html>
`;

/** The page's policy: as strict as the reference allows. */
function policyOf(config: Config): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    ...(config.appUrl.startsWith('https://') ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** Adds GET /api/docs with its bundle and start script to the app. */
export function mountApiDocs(app: Express, config: Config): void {
  // Read on first asking (about 4 MB): an instance nobody reads the reference on never holds it.
  let bundle: MadeOnce | undefined;
  const bundleOf = () => (bundle ??= madeOnce(readFileSync(path.join(SCALAR_DIST, 'browser/standalone.js'))));
  const start = madeOnce(Buffer.from(START));
  const policy = policyOf(config);

  const page = madeOnce(Buffer.from(PAGE));
  const pageHeaders = {
    'Content-Security-Policy': policy,
    'Cache-Control': 'no-cache',
    'Content-Type': 'text/html; charset=utf-8',
  };

  app.get('/api/docs', (req, res, next) => {
    // The page asks for the bundle next: its compression starts now.
    const encoding = encodingFor(req.headers['accept-encoding']);
    if (encoding)
      bundleOf()
        .compressed(encoding)
        .catch(() => {});
    sendMadeOnce(req, res, page, pageHeaders)?.catch(next);
  });
  app.get(API_DOCS_BUNDLE, (req, res, next) => {
    sendMadeOnce(req, res, bundleOf(), SCRIPT)?.catch(next);
  });
  app.get(START_URL, (req, res, next) => {
    sendMadeOnce(req, res, start, SCRIPT)?.catch(next);
  });
}
