// The strings of a REST query (and of a path's parameters) read as the types their fields take: a query has only
// strings, so `?limit=5` must reach a number field as 5 and `?x=false` a boolean field as false. A JSON body is
// never read this way: it is JSON, and a string where the document says boolean is the procedure's 400.
// trpc-to-openapi's way (`coerceSchema`) set the coerce flag on the procedure's own input schema, objects shared by
// every door and every form (tRPC, the pages): after one REST call `"isSuperAdmin": "false"` was true everywhere.
// Here the fields' schemas are only looked at, never changed; the reading is done by schemas of this module's own.
import { instanceofZodTypeKind, unwrapZodType } from 'trpc-to-openapi';
import { z } from '#domain/zod.ts';

const COERCERS = {
  number: z.coerce.number(),
  bigint: z.coerce.bigint(),
  date: z.coerce.date(),
  // 'true'/'false' (and 1/0, yes/no, on/off): not Boolean(text), for which "false" is true.
  boolean: z.stringbool(),
};
type Kind = keyof typeof COERCERS;
const KINDS = Object.keys(COERCERS) as Kind[];

/** The fields whose query strings are read as another type, by name. */
export type QueryKinds = Record<string, Kind>;

/** The top-level fields of an input schema that take numbers, booleans, big integers or dates (or lists of them). */
export function queryKindsOf(object: { shape: Record<string, unknown> }): QueryKinds {
  const kinds: QueryKinds = {};
  for (const [key, field] of Object.entries(object.shape)) {
    // As trpc-to-openapi looks at a field: through optional, nullable, default and list, not through a pipe.
    const inner = unwrapZodType(field as Parameters<typeof unwrapZodType>[0], false);
    const kind = KINDS.find((k) => instanceofZodTypeKind(inner, k));
    if (kind) kinds[key] = kind;
  }
  return kinds;
}

const read = (kind: Kind, value: unknown) => {
  if (typeof value !== 'string') return value;
  const parsed = COERCERS[kind].safeParse(value);
  // What does not read as the type stays the text, for the procedure's schema to refuse with the field named.
  return parsed.success ? parsed.data : value;
};

/** Reads the query's (or path's) strings of `input` as their fields' types, in place; answers `input`. */
export function fromQuery(input: Record<string, unknown>, kinds: QueryKinds): Record<string, unknown> {
  for (const [key, kind] of Object.entries(kinds)) {
    const value = input[key];
    if (value !== undefined) input[key] = Array.isArray(value) ? value.map((v) => read(kind, v)) : read(kind, value);
  }
  return input;
}
