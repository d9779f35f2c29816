// The opaque cursors of the REST paths that page by keyset (GET /api/usage; GET /api/sim/all writes its own, the
// same way): the last row of a page as base64url text, which the next request sends back as `cursor`, and the
// `Link: <url>; rel="next"` header (RFC 8288) that carries it. A cursor that does not read back is a 400 on the
// field `cursor`, with the list's text.
import { Invalid } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';

/** The cursor of a page's last row: its kind (so another path's or grouping's cursor is refused) and its keys. */
export const cursorOf = (kind: string, keys: readonly string[]): string =>
  Buffer.from(JSON.stringify([kind, ...keys])).toString('base64url');

/** The keys of a cursor of this kind, each checked by `valid`; anything else is a 400 naming `cursor`. */
export function cursorKeys(cursor: string, kind: string, valid: ReadonlyArray<(key: string) => boolean>): string[] {
  const bad = () => Invalid.field('cursor', t.errors.badCursor);
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parts) || parts.length !== valid.length + 1 || parts[0] !== kind) throw bad();
  const keys = parts.slice(1);
  if (!keys.every((k, i): k is string => typeof k === 'string' && (valid[i]?.(k) ?? false))) throw bad();
  return keys;
}

/** The `Link` header of a next page: the path with the query that asks for it (the cursor among it). */
export const nextLink = (appUrl: string, path: string, query: URLSearchParams): string =>
  `<${appUrl}/api${path}?${query}>; rel="next"`;
