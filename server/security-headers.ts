// Security headers on every response (helmet): a Content-Security-Policy that runs only the portal's own
// scripts (Remix's inline scripts carry a per-request nonce, handed to app/entry.server.tsx through the load
// context), no framing, no sniffing, a referrer policy, HSTS behind https, and the camera for the portal only.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from './config.js';

const nonceOf = (_req: unknown, res: ServerResponse) => `'nonce-${(res as Response).locals.cspNonce}'`;

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

export function securityHeaders(config: Config, opts: { dev: boolean }): RequestHandler[] {
  const https = config.appUrl.startsWith('https://');
  return [
    (_req, res, next) => {
      res.locals.cspNonce = randomBytes(16).toString('base64');
      next();
    },
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
    (req, res, next) => {
      res.setHeader('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()');
      if (!neverADocument(req.path)) res.set(DOCUMENT_HEADERS);
      next();
    },
  ];
}
