// The files of build/client: hashed assets cached for a year and sent as compressed at build time where the client
// takes it, a short plain 404 for an asset the build does not have, the other files of the build for an hour.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import { encodingFor } from './encoding.ts';

/**
 * A hashed asset's name changes with its content: cached for a year, never revalidated (immutable), so it needs no
 * validators (ETag, Last-Modified) nor byte ranges: fewer bytes on every one of a first visit's responses.
 */
const HASHED = { immutable: true, maxAge: '1y', etag: false, lastModified: false, acceptRanges: false } as const;

/** Serves an asset's .br or .gz sibling (written by the build, vite.config.ts) to a client that takes it. */
function precompressedAssets(dir: string): RequestHandler {
  const files = new Set(existsSync(dir) ? readdirSync(dir) : []);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!files.has(`${name}.br`) && !files.has(`${name}.gz`)) return next();
    res.setHeader('Vary', 'Accept-Encoding');
    const encoding = encodingFor(req.headers['accept-encoding']);
    const file =
      encoding === 'br' && files.has(`${name}.br`)
        ? `${name}.br`
        : encoding && files.has(`${name}.gz`)
          ? `${name}.gz`
          : null;
    if (!file) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', file.endsWith('.br') ? 'br' : 'gzip');
    res.sendFile(file, { root: dir, ...HASHED, dotfiles: 'deny' }, (err) => err && next(err));
  };
}

/** Adds the static files of the built client (clientDir) to the app. */
export function mountStaticFiles(app: Express, clientDir: string): void {
  // Hashed file names: cache for a year, sent as compressed at build time where the client takes it.
  // Everything else in build/client: an hour.
  app.use('/assets', precompressedAssets(path.join(clientDir, 'assets')));
  app.use('/assets', express.static(path.join(clientDir, 'assets'), { ...HASHED, index: false }));
  // An asset the build does not have (an old page's chunk after a deploy, a guess): a short plain 404, never a
  // page (its headers are a subresource's: server/http/security-headers.ts).
  app.use('/assets', (_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').type('text/plain').send(t.errors.byCode.NOT_FOUND);
  });
  // The rest of build/client (public/: the favicon) by name, listed once: a page's path is not looked for on disk
  // (a stat and its ENOENT error on every page was about 1 % of GET /sims' time; bench:load-cpu).
  const files = publicFiles(clientDir);
  const serve = express.static(clientDir, { maxAge: '1h', index: false });
  app.use((req, res, next) => (files.has(decodedPath(req.path)) ? serve(req, res, next) : next()));
}

/** The paths ("/favicon.svg") of the files of the built client outside assets/. */
function publicFiles(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
      .filter((name) => !name.startsWith('/assets/')),
  );
}

function decodedPath(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return '';
  }
}
