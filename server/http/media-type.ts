// What a request body is, by its Content-Type: the one rule for every door. The body
// check (server/http/guards.ts), the REST door (server/http/rest.ts), the tRPC door (server/http/trpc.ts) and the form
// posts of the pages (before Remix) all read the header through mediaTypeOf, so none of them can take a body
// for JSON that another took for something else ("application/jsonx", "application/json ,", a list).
import contentType from 'content-type';

export type MediaType = {
  /** The type and subtype, lower-case ("application/json"); null when the header is missing or malformed. */
  essence: string | null;
  /** What the portal makes of it. */
  kind: 'json' | 'form' | 'multipart' | 'other' | 'none' | 'malformed';
};

/** Parses a Content-Type header by RFC 9110 (the `content-type` package): one type, optional parameters. */
export function mediaTypeOf(header: string | undefined | null): MediaType {
  if (header === undefined || header === null || header.trim() === '') return { essence: null, kind: 'none' };
  let essence: string;
  try {
    essence = contentType.parse(header).type; // lower-case; throws on a list, stray characters or a bad parameter
  } catch {
    return { essence: null, kind: 'malformed' };
  }
  if (essence === 'application/json') return { essence, kind: 'json' };
  if (essence === 'application/x-www-form-urlencoded') return { essence, kind: 'form' };
  if (essence === 'multipart/form-data') return { essence, kind: 'multipart' };
  return { essence, kind: 'other' };
}

/** A body the JSON doors (REST, tRPC) read: exactly application/json, with any parameters. */
export const isJson = (header: string | undefined | null): boolean => mediaTypeOf(header).kind === 'json';
