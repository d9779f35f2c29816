// Security headers on every response (helmet): a Content-Security-Policy that runs only the portal's own
// scripts (Remix's inline scripts carry a per-request nonce, handed to app/entry.server.tsx through the load
// context), no framing, no sniffing, a referrer policy, HSTS behind https, and the camera for the portal only.
// helmet decides the headers once, at start-up (they depend on the configuration only); each response gets that
// list with its own nonce, so a request pays for a few setHeader calls, not for helmet's chain.
import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '#server/config.ts';

declare module 'http' {
  interface ServerResponse {
    /** The header names as set, in order (Node's OutgoingMessage has it; @types/node declares it on ClientRequest only). */
    getRawHeaderNames(): string[];
  }
}

/** Stands for the response's nonce in the policy helmet writes once. */
const NONCE = 'NONCE-OF-THE-RESPONSE';
const nonceOf = () => `'nonce-${NONCE}'`;

// A nonce is 16 random bytes; they are drawn 4 kB at a time (256 nonces per call to the system's generator).
let randomPool = Buffer.alloc(0);
let randomOffset = 0;
export function newNonce(): string {
  if (randomOffset + 16 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomOffset = 0;
  }
  randomOffset += 16;
  return randomPool.toString('base64', randomOffset - 16, randomOffset);
}

/**
 * The headers a helmet middleware sets, in order, as [name, value] (its middlewares are synchronous): it runs once
 * on a response of Node's own that is never sent.
 */
function headersOf(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  let done = false;
  middleware(res.req, res, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return res.getRawHeaderNames().map((name) => [name, String(res.getHeader(name))]);
}

/**
 * Headers that only a document heeds (the opener policy and origin-keyed agent cluster of a top-level page) and
 * helmet's headers for old clients (the DNS-prefetch switch, IE's download option, Adobe's cross-domain policy
 * files, the retired XSS auditor): on every answer that can be a document. Hashed assets and Remix's .data and
 * /__manifest fetches are never shown as a document and go without them (about 170 bytes each, on a page's
 * many small responses); every other security header stays on them.
 */
const DOCUMENT_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};
export const neverADocument = (urlPath: string) =>
  urlPath.startsWith('/assets/') || urlPath.endsWith('.data') || urlPath === '/__manifest';

/**
 * A hashed script or stylesheet of the build: never a document, never a worker's script (the scanner's workers
 * start from blob: URLs, which take the page's policy), so the policies a document or worker reads from its own
 * answer (Content-Security-Policy, X-Frame-Options, Permissions-Policy, Referrer-Policy) mean nothing on it. It
 * keeps what a subresource heeds: nosniff (a script or style of the wrong type is refused), the resource policy,
 * and HSTS (for the host). About 480 bytes less on each of a first visit's ~20 scripts and stylesheets.
 */
export const isHashedSubresource = (urlPath: string) => /^\/assets\/[^/]+\.(js|css)$/.test(urlPath);
const SUBRESOURCE_HEADERS = new Set([
  'x-content-type-options',
  'cross-origin-resource-policy',
  'strict-transport-security',
]);

export function securityHeaders(config: Config, opts: { dev: boolean }): RequestHandler {
  const https = config.appUrl.startsWith('https://');
  const headers = headersOf(
    helmet({
      // Vite's dev server injects its own scripts, styles and a websocket: the policy is for the built app.
      contentSecurityPolicy: opts.dev
        ? false
        : {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", nonceOf],
              styleSrc: ["'self'", nonceOf],
              // A scanned photo is shown from a blob: URL; the camera stream needs no source.
              imgSrc: ["'self'", 'data:', 'blob:'],
              mediaSrc: ["'self'", 'blob:'],
              workerSrc: ["'self'", 'blob:'],
              connectSrc: ["'self'"],
              fontSrc: ["'self'"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              formAction: ["'self'"],
              frameAncestors: ["'none'"],
              ...(https ? { upgradeInsecureRequests: [] } : {}),
            },
          },
      strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'deny' },
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  headers.push(['Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()']);
  const documentHeaders = Object.entries(DOCUMENT_HEADERS);
  const subresourceHeaders = headers.filter(([name]) => SUBRESOURCE_HEADERS.has(name.toLowerCase()));
  // Each value split where the nonce goes (one part: no nonce in it).
  const withNonce = headers.map(([name, value]) => [name, value.split(NONCE)] as const);
  return (req, res, next) => {
    if (isHashedSubresource(req.path)) {
      for (const [name, value] of subresourceHeaders) res.setHeader(name, value);
      return next();
    }
    const nonce = newNonce();
    res.locals.cspNonce = nonce;
    for (const [name, parts] of withNonce) res.setHeader(name, parts.join(nonce));
    if (!neverADocument(req.path)) for (const [name, value] of documentHeaders) res.setHeader(name, value);
    next();
  };
}
