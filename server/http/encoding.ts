// Which compression a client takes, from its Accept-Encoding: used for API answers compressed in one go and
// for the hashed assets compressed at build time (negotiator reads the header).
import Negotiator from 'negotiator';

/** Which of the encodings we make a client may take, best first where it weighs them the same. */
const OURS = ['br', 'gzip'] as const;

/** Brotli where the client weighs it at least as gzip (smaller and, at quality 4, faster), else gzip, else none. */
export function encodingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  // negotiator takes the order to prefer on a tie in its options (its @types leave that argument out).
  const negotiator: { encoding(available: readonly string[], opts: { preferred: readonly string[] }): unknown } =
    new Negotiator({ headers: { 'accept-encoding': acceptEncoding } });
  const chosen = negotiator.encoding(OURS, { preferred: OURS });
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

/**
 * How answers made per request (pages, API JSON) are compressed: brotli at quality 4 (the compression
 * middleware's default), gzip at level 1, nginx's default for dynamic answers: a page of 50 SIMs as JSON (15.7
 * kB) in 0.05 ms instead of 0.09 ms at zlib's default 6, for 8% more bytes (1.19 instead of 1.11 kB); the /sims
 * page (35 kB of HTML) 6.1 instead of 5.5 kB. Browsers take brotli; gzip is for other clients (bench:load's).
 */
export const DYNAMIC_GZIP_LEVEL = 1;
export const DYNAMIC_BROTLI_QUALITY = 4;
