// The HTTP doors onto the tRPC router: the spec's REST paths (trpc-to-openapi, mounted at /api), the native
// tRPC endpoint (/api/trpc, for @trpc/client) and the OpenAPI document. One error shape for all:
// { error, issues } with Swedish messages, never a stack trace or SQL.
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createOpenApiNodeHttpHandler, generateOpenApiDocument } from 'trpc-to-openapi';
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from '../db/errors.js';
import type { Services } from '../services.js';
import type { Context } from '../trpc/context.js';
import { appRouter } from '../trpc/router.js';

export const MAX_BODY_BYTES = 100 * 1024;

type Issue = { path: string[]; message: string };

const messages: Record<string, string> = {
  PARSE_ERROR: 'Förfrågans innehåll är inte giltig JSON.',
  BAD_REQUEST: 'Ogiltiga uppgifter.',
  UNAUTHORIZED: 'Du är inte inloggad.',
  FORBIDDEN: 'Du har inte behörighet till detta.',
  NOT_FOUND: 'Det du söker finns inte.',
  METHOD_NOT_SUPPORTED: 'Metoden stöds inte för den här sökvägen.',
  CONFLICT: 'Det går inte att genomföra ändringen.',
  PAYLOAD_TOO_LARGE: 'Förfrågan är för stor (högst 100 kB).',
  UNSUPPORTED_MEDIA_TYPE: 'Innehållstypen måste vara application/json.',
  TOO_MANY_REQUESTS: 'För många förfrågningar. Försök igen om en stund.',
  INTERNAL_SERVER_ERROR: 'Något gick fel på servern.',
};

const statusOf: Record<string, number> = {
  PARSE_ERROR: 400, BAD_REQUEST: 400, UNSUPPORTED_MEDIA_TYPE: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405, CONFLICT: 409, PAYLOAD_TOO_LARGE: 413, TOO_MANY_REQUESTS: 429,
};

/** A message written for users (ours are Swedish); library and database messages are replaced. */
function userMessage(code: string, message: string | undefined, ours: boolean): string {
  if (ours && message && code !== 'INTERNAL_SERVER_ERROR') return message;
  return messages[code] ?? messages.INTERNAL_SERVER_ERROR!;
}

export function errorResponse(status: number, error: string, issues: Issue[] = [], extra: Record<string, unknown> = {}): Response {
  return Response.json({ error, issues, ...extra }, { status, headers: { 'Cache-Control': 'no-store' } });
}

// trpc-to-openapi's fetch adapter builds its handler (route table, and in development the whole OpenAPI
// document) on every request. Here it is built once; each request's context travels with its request object.
type RestState = { services: Services; ctx: Context; thrown: TRPCError | null; databaseDown: boolean };
const restStates = new WeakMap<object, RestState>();
let restHandler: ((req: unknown, res: unknown) => Promise<void>) | null = null;

function getRestHandler() {
  restHandler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req }: { req: object }) => restStates.get(req)!.ctx,
    onError: ({ error, path, req }: { error: TRPCError; path?: string; req: object }) => {
      const state = restStates.get(req)!;
      // Only errors from inside a procedure carry our messages; the adapter's own (no such path) do not.
      if (path) state.thrown = error;
      if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(error)) state.databaseDown = true;
      else if (error.code === 'INTERNAL_SERVER_ERROR') state.services.log.error({ reqId: state.ctx.requestId, err: error.cause ?? error }, 'api error');
    },
    responseMeta: ({ ctx }: { ctx?: Context }) => {
      const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
      const cookie = ctx?.resHeaders.get('set-cookie');
      if (cookie) headers['Set-Cookie'] = cookie;
      return { headers };
    },
  } as never) as never;
  return restHandler!;
}

/** The request as the node-http handler reads it: the URL without /api, and the body already parsed. */
async function restRequest(request: Request): Promise<object> {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/^\/api/, '') || '/';
  let body: { ok: true; data: unknown } | { ok: false; cause: unknown } = { ok: true, data: undefined };
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) body = { ok: true, data: JSON.parse(await request.text()) };
    else if (type.includes('application/x-www-form-urlencoded')) {
      const params = new URLSearchParams(await request.text());
      const data: Record<string, string[]> = {};
      for (const key of params.keys()) data[key] = params.getAll(key);
      body = { ok: true, data };
    } else body = { ok: true, data: request.body };
  } catch (cause) {
    body = { ok: false, cause };
  }
  return new Proxy(request, {
    get(target, prop) {
      if (prop === 'url') return url.toString();
      if (prop === 'body') {
        if (!body.ok) throw new TRPCError({ code: 'PARSE_ERROR', message: 'Failed to parse request body', cause: body.cause });
        return body.data;
      }
      return (target as unknown as Record<string | symbol, unknown>)[prop];
    },
  });
}

/** The REST paths of the spec, answered by the procedures whose meta names them. */
export async function handleRest(services: Services, ctx: Context, request: Request): Promise<Response> {
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_BODY_BYTES) return errorResponse(413, messages.PAYLOAD_TOO_LARGE!);
  const req = await restRequest(request);
  const state: RestState = { services, ctx, thrown: null, databaseDown: false };
  restStates.set(req, state);
  const response = await new Promise<Response>((resolve) => {
    const headers = new Headers();
    let statusCode = 200;
    const res = {
      setHeader: (key: string, value: string | string[]) => {
        if (typeof value === 'string') headers.set(key, value);
        else for (const v of value) headers.append(key, v);
      },
      get statusCode() {
        return statusCode;
      },
      set statusCode(code: number) {
        statusCode = code;
      },
      end: (chunk?: string) => resolve(new Response(chunk, { status: statusCode, headers })),
    };
    void getRestHandler()(req, res);
  });
  const thrown = state.thrown as TRPCError | null;
  const databaseDown = state.databaseDown;
  if (response.status < 400) return response;
  let body: { code?: string; message?: string; issues?: Array<{ path?: unknown[]; message?: string }>; data?: { issues?: Issue[] } } = {};
  try {
    body = await response.clone().json();
  } catch {
    body = {};
  }
  const code = body.code ?? (thrown as TRPCError | null)?.code ?? 'INTERNAL_SERVER_ERROR';
  const zodIssues = (body.issues ?? []).map((i) => ({ path: (i.path ?? []).map(String), message: String(i.message ?? '') }));
  const issues: Issue[] = zodIssues.length ? zodIssues : (body.data?.issues ?? []);
  const ours = !!thrown && !(code === 'BAD_REQUEST' && zodIssues.length) && code !== 'PARSE_ERROR';
  let error = userMessage(code, (thrown as TRPCError | null)?.message ?? body.message, ours);
  if (zodIssues.length) error = zodIssues[0]!.message || messages.BAD_REQUEST!;
  const status = statusOf[code] ?? (response.status >= 500 ? 500 : response.status);
  if (databaseDown) return errorResponse(503, DATABASE_DOWN_MESSAGE, [], { requestId: ctx.requestId });
  if (status >= 500) return errorResponse(500, messages.INTERNAL_SERVER_ERROR!, [], { requestId: ctx.requestId });
  return errorResponse(status, error, issues);
}

/** The native tRPC endpoint for the browser's @trpc/client (batching on). */
export function handleTrpc(services: Services, ctx: Context, request: Request): Promise<Response> {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    router: appRouter,
    req: request,
    createContext: () => ctx,
    onError: ({ error }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') services.log.error({ reqId: ctx.requestId, err: error.cause ?? error }, 'trpc error');
    },
    responseMeta: () => {
      const headers = new Headers({ 'Cache-Control': 'no-store' });
      ctx.resHeaders.forEach((v, k) => headers.append(k, v));
      return { headers };
    },
  });
}

let openApiDocument: unknown = null;
export function openApi(services: Services) {
  openApiDocument ??= generateOpenApiDocument(appRouter, {
    title: 'SIM-portalen API',
    description: 'The REST paths of the SIM portal. Authentication: the session cookie from the e-mail link login (/auth/login, /auth/magic). Errors: { error, issues }.',
    version: '1.0.0',
    baseUrl: `${services.config.appUrl}/api`,
  });
  return openApiDocument;
}
