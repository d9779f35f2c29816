// The REST door's route table: one route per procedure whose meta names a REST path (`openapi`), matched as
// trpc-to-openapi matches its paths (case-insensitive, trailing slash ignored), each with what its input takes.
// Made once, from the router's flat record of procedures and the public parts of their definitions (type, meta,
// input schema) and zod's own classes: no library's internal helpers.
import { z } from '#domain/zod.ts';
import { appRouter } from '#server/trpc/router.ts';
import { keyScopeOf, metaOf, type KeyScope, type ProcedureMeta } from '#server/trpc/meta.ts';
import { queryKindsOf, type QueryKinds } from './query-input.ts';

export type RestRoute = {
  method: string;
  path: RegExp;
  /** The procedure's path in the router, e.g. ["sim", "list"]. */
  procedure: string[];
  /** What the procedure declares: its key scope, step-up, cost and whether it takes an Idempotency-Key. */
  meta: ProcedureMeta;
  /** The input is only path parameters: the request takes no body and no content type. */
  bodyless: boolean;
  /** A session is required (every path of the spec): an anonymous caller gets 401 before the body is looked at. */
  protect: boolean;
  /** z.void() or none: the procedure takes no input. */
  noInput: boolean;
  /** The query fields that are lists (a lone value becomes a one-item list). */
  listFields: string[];
  /** The fields a query or a path gives as strings but the schema takes as numbers, booleans or dates. */
  queryKinds: QueryKinds;
};

/** A REST path as the table keeps it: one leading slash, no trailing one. */
export const normalizePath = (path: string) => `/${path.replace(/^\/|\/$/g, '')}`;

/** The path's pattern: each `{name}` one segment, as a named group. */
const pathRegExp = (path: string) =>
  new RegExp(`^${path.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}$`, 'i');

/** The schema an input is checked against, through what only wraps it (optional, default, a preprocess). */
function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return unwrapped(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPrefault) return unwrapped(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodLazy) return unwrapped(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe)
    return unwrapped((schema.out instanceof z.ZodTransform ? schema.in : schema.out) as z.ZodType);
  return schema;
}

const isList = (field: unknown) =>
  field instanceof z.ZodArray || (field instanceof z.ZodOptional && field.unwrap() instanceof z.ZodArray);

type Built = { _def: { type: string; inputs: unknown[]; meta?: unknown } };
type RestMeta = ProcedureMeta & { openapi: NonNullable<ProcedureMeta['openapi']> };

export const restRoutes: RestRoute[] = [];
/**
 * Each REST operation's key, as its procedure declares it: a company's API key's scope (`GET /sim/all` read), the
 * network's integration key ('network', decision 034), or none (null).
 */
export const restScopes = new Map<string, KeyScope | 'network' | null>();

// tRPC keeps the router's procedures flat by their dotted path (its type says the nested record).
for (const [procedurePath, leaf] of Object.entries(appRouter._def.procedures as Record<string, unknown>)) {
  const procedure = leaf as Built;
  const meta = metaOf(procedure);
  if (!meta.openapi || meta.openapi.enabled === false || procedure._def.type === 'subscription') continue;
  const { openapi } = meta as RestMeta;
  const pathParams = [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const input = procedure._def.inputs[0] as z.ZodType | undefined;
  const shape = (input as { shape?: Record<string, unknown> } | undefined)?.shape;
  const bodyless = openapi.method !== 'GET' && !!shape && Object.keys(shape).every((k) => pathParams.includes(k));
  const schema = input ? unwrapped(input) : z.object({});
  const object = schema instanceof z.ZodObject ? schema : null;
  restScopes.set(`${openapi.method} ${normalizePath(openapi.path)}`, meta.networkKey ? 'network' : keyScopeOf(meta));
  restRoutes.push({
    method: openapi.method,
    path: pathRegExp(normalizePath(openapi.path)),
    procedure: procedurePath.split('.'),
    meta,
    bodyless,
    protect: openapi.protect !== false,
    noInput: schema instanceof z.ZodVoid || schema instanceof z.ZodUndefined || schema instanceof z.ZodNever,
    listFields: object ? Object.keys(object.shape).filter((key) => isList(object.shape[key])) : [],
    queryKinds: object ? queryKindsOf(object) : {},
  });
}
// The list export (server/http/sim-export.ts) is a file, not a procedure's JSON: its procedure declares its scope.
restScopes.set('GET /sim/export', keyScopeOf(metaOf(appRouter.export.simList)));

/** The route of a request, with its path's parameters. */
export function restRouteOf(
  method: string,
  path: string,
): { route: RestRoute; params: Record<string, string> } | undefined {
  const normalized = normalizePath(path);
  const as = method === 'HEAD' ? 'GET' : method; // HEAD is the GET without its body (Node leaves it out)
  for (const route of restRoutes) {
    if (route.method !== as) continue;
    const match = route.path.exec(normalized);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}
