// Which compression a client takes, from its Accept-Encoding: used for API answers compressed in one go and
// for the hashed assets compressed at build time.

/** The client's weight for an encoding in Accept-Encoding (0 when refused or not named). */
function weightOf(acceptEncoding: string, name: string): number {
  let star = 0;
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q) || 0;
    if (coding === name) return weight;
    if (coding === '*') star = weight;
  }
  return star;
}

/** Brotli where the client weighs it at least as gzip (smaller and, at quality 4, faster), else gzip, else none. */
export function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const br = weightOf(acceptEncoding, 'br');
  const gzip = weightOf(acceptEncoding, 'gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : null;
}

/**
 * How answers made per request (pages, API JSON) are compressed: brotli at quality 4 (the compression
 * middleware's default), gzip at level 1, nginx's default for dynamic answers: a page of 50 SIMs as JSON (15.7
 * kB) in 0.05 ms instead of 0.09 ms at zlib's default 6, for 8% more bytes (1.19 instead of 1.11 kB); the /sims
 * page (35 kB of HTML) 6.1 instead of 5.5 kB. Browsers take brotli; gzip is for other clients (bench:load's).
 */
export const DYNAMIC_GZIP_LEVEL = 1;
export const DYNAMIC_BROTLI_QUALITY = 4;
