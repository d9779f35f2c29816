// The HTTP doors onto the tRPC router: the spec's REST paths (trpc-to-openapi, mounted at /api), the native
// tRPC endpoint (/api/trpc, for @trpc/client) and the OpenAPI document. One error shape for all:
// { error, issues } with Swedish messages, never a stack trace or SQL.
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createOpenApiNodeHttpHandler, forEachOpenApiProcedure, generateOpenApiDocument, getPathRegExp, normalizePath } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { t } from '../../app/texts.js';
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from '../db/errors.js';
import { DEFAULT_BODY_LIMIT } from '../doors.js';
import { encodingFor } from '../encoding.js';
import type { Services } from '../services.js';
import type { Context } from '../trpc/context.js';
import { appRouter } from '../trpc/router.js';

/** At most this many calls in one tRPC batch request; the browser's client splits larger batches. */
export const MAX_BATCH_CALLS = 10;

type Issue = { path: string[]; message: string };

const messages: Record<string, string> = {
  PARSE_ERROR: 'Förfrågans innehåll är inte giltig JSON.',
  BAD_REQUEST: 'Ogiltiga uppgifter.',
  UNAUTHORIZED: 'Du är inte inloggad.',
  FORBIDDEN: 'Du har inte behörighet till detta.',
  NOT_FOUND: 'Det du söker finns inte.',
  METHOD_NOT_SUPPORTED: 'Metoden stöds inte för den här sökvägen.',
  CONFLICT: 'Det går inte att genomföra ändringen.',
  PAYLOAD_TOO_LARGE: t.refused.tooLarge(DEFAULT_BODY_LIMIT / 1024),
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

/** An answer of the REST door, written to Express's response by sendAnswer. */
type Answer = { status: number; headers: Record<string, string | string[]>; body: string };

const errorAnswer = (status: number, error: string, issues: Issue[] = [], extra: Record<string, unknown> = {}): Answer => ({
  status,
  headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  body: JSON.stringify({ error, issues, ...extra }),
});

// The REST paths the procedures' meta names, matched as trpc-to-openapi matches them (case-insensitive,
// trailing slash ignored), so Express can tell at once whether a request is the REST door's.
type RestRoute = {
  method: string;
  path: RegExp;
  /** The input is only path parameters: the request takes no body and no content type. */
  bodyless: boolean;
  /** A session is required (every path of the spec): an anonymous caller gets 401 before the body is looked at. */
  protect: boolean;
};
const restRoutes: RestRoute[] = [];
type OpenApiProcedure = { _def: { type: string; inputs: unknown[] } };
forEachOpenApiProcedure(appRouter._def.procedures as never, ({ procedure, meta }: { procedure: OpenApiProcedure; meta: { openapi: { method: string; path: string; protect?: boolean } } }) => {
  if (procedure._def.type === 'subscription') return;
  const pathParams = [...meta.openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const shape = (procedure._def.inputs[0] as { shape?: Record<string, unknown> } | undefined)?.shape;
  const bodyless = meta.openapi.method !== 'GET' && !!shape && Object.keys(shape).every((k) => pathParams.includes(k));
  restRoutes.push({ method: meta.openapi.method, path: getPathRegExp(normalizePath(meta.openapi.path)), bodyless, protect: meta.openapi.protect !== false });
});

function restRouteOf(method: string, path: string): RestRoute | undefined {
  const normalized = normalizePath(path);
  const as = method === 'HEAD' ? 'GET' : method; // HEAD is the GET without its body (Node leaves it out)
  return restRoutes.find((r) => r.method === as && r.path.test(normalized));
}

/** Whether a request (path without /api) is for one of the spec's REST paths. */
export function isRestPath(method: string, path: string): boolean {
  return !!restRouteOf(method, path);
}

// trpc-to-openapi's fetch adapter builds its handler (route table, and in development the whole OpenAPI
// document) on every request. Here it is built once; each request's state travels with its request object.
type RestState = { services: Services; requestId: string; context: () => Promise<Context>; thrown: TRPCError | null; databaseDown: boolean };
const restStates = new WeakMap<object, RestState>();
let restHandler: ((req: unknown, res: unknown) => Promise<void>) | null = null;

function getRestHandler() {
  restHandler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    maxBodySize: DEFAULT_BODY_LIMIT,
    // The session is looked up only once the path is known to be a procedure's.
    createContext: ({ req }: { req: object }) => restStates.get(req)!.context(),
    onError: ({ error, path, req }: { error: TRPCError; path?: string; req: object }) => {
      const state = restStates.get(req)!;
      // Only errors from inside a procedure carry our messages; the adapter's own (no such path) do not.
      if (path) state.thrown = error;
      if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(error)) state.databaseDown = true;
      else if (error.code === 'INTERNAL_SERVER_ERROR') state.services.log.error({ reqId: state.requestId, err: error.cause ?? error }, 'api error');
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

export type RestRequest = { method: string; url: URL; contentType: string; body: string; signal: AbortSignal };

/** The request as the adapter reads it: the URL without /api, and the body already parsed. */
function adapterRequest(request: RestRequest): object {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/^\/api/i, '') || '/';
  let body: { ok: true; data: unknown } | { ok: false; cause: unknown } = { ok: true, data: undefined };
  const type = request.contentType;
  try {
    if (type.includes('application/json')) body = { ok: true, data: JSON.parse(request.body) };
    else if (type.includes('application/x-www-form-urlencoded')) {
      const params = new URLSearchParams(request.body);
      const data: Record<string, string[]> = {};
      for (const key of params.keys()) data[key] = params.getAll(key);
      body = { ok: true, data };
    } else body = { ok: true, data: request.body || undefined };
  } catch (cause) {
    body = { ok: false, cause };
  }
  // A fetch Request (the adapter then takes its signal instead of converting a node request), with the
  // parsed body in place of the stream.
  const target = new Request(url, { method: request.method, headers: type ? { 'content-type': type } : undefined, signal: request.signal });
  return new Proxy(target, {
    get(t, prop) {
      if (prop === 'body') {
        if (!body.ok) throw new TRPCError({ code: 'PARSE_ERROR', message: 'Failed to parse request body', cause: body.cause });
        return body.data;
      }
      return (t as unknown as Record<string | symbol, unknown>)[prop];
    },
  });
}

/** The REST paths of the spec, answered by the procedures whose meta names them. */
export async function handleRest(services: Services, requestId: string, context: () => Promise<Context>, request: RestRequest): Promise<Answer> {
  const req = adapterRequest(request);
  const state: RestState = { services, requestId, context, thrown: null, databaseDown: false };
  restStates.set(req, state);
  const answer = await new Promise<Answer>((resolve) => {
    const headers: Answer['headers'] = {};
    let statusCode = 200;
    const res = {
      setHeader: (key: string, value: string | string[]) => {
        headers[key] = value;
      },
      get statusCode() {
        return statusCode;
      },
      set statusCode(code: number) {
        statusCode = code;
      },
      end: (chunk?: string) => resolve({ status: statusCode, headers, body: chunk ?? '' }),
    };
    void getRestHandler()(req, res);
  });
  if (answer.status < 400) return answer;
  const thrown = state.thrown;
  let body: { code?: string; message?: string; issues?: Array<{ path?: unknown[]; message?: string }>; data?: { issues?: Issue[] } } = {};
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = {};
  }
  const code = body.code ?? thrown?.code ?? 'INTERNAL_SERVER_ERROR';
  const zodIssues = (body.issues ?? []).map((i) => ({ path: (i.path ?? []).map(String), message: String(i.message ?? '') }));
  const issues: Issue[] = zodIssues.length ? zodIssues : (body.data?.issues ?? []);
  // The adapter's own refusals (body, content type) carry English library text: ours replaces it.
  const adapters = ['PARSE_ERROR', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'];
  const ours = !!thrown && !(code === 'BAD_REQUEST' && zodIssues.length) && !adapters.includes(code);
  let error = userMessage(code, thrown?.message ?? body.message, ours);
  if (zodIssues.length) error = zodIssues[0]!.message || messages.BAD_REQUEST!;
  const status = statusOf[code] ?? (answer.status >= 500 ? 500 : answer.status);
  if (state.databaseDown) {
    const down = errorAnswer(503, DATABASE_DOWN_MESSAGE, [], { requestId });
    down.headers['Retry-After'] = '5';
    return down;
  }
  if (status >= 500) return errorAnswer(500, messages.INTERNAL_SERVER_ERROR!, [], { requestId });
  return errorAnswer(status, error, issues);
}

// An answer is one string in memory, so it is compressed in one go (as the compression middleware would
// choose: brotli quality 4 or gzip, from 1 kB) and written with its length in one write; the streaming
// middleware cost more per request than the compression itself.
const COMPRESS_FROM_BYTES = 1024;

const ASYNC_COMPRESS_FROM_BYTES = 64 * 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } };

async function sendAnswer(req: ExpressRequest, res: ExpressResponse, answer: Answer): Promise<void> {
  res.statusCode = answer.status;
  for (const [key, value] of Object.entries(answer.headers)) res.setHeader(key, value);
  let body: Buffer = Buffer.from(answer.body);
  const encoding = body.length >= COMPRESS_FROM_BYTES ? encodingFor(req.headers['accept-encoding']) : null;
  if (body.length >= COMPRESS_FROM_BYTES) res.setHeader('Vary', 'Accept-Encoding');
  if (encoding) {
    // A large answer (a whole list without a limit) is compressed off the event loop.
    const large = body.length >= ASYNC_COMPRESS_FROM_BYTES;
    if (encoding === 'br') body = large ? await brotliAsync(body, BROTLI) : brotliCompressSync(body, BROTLI);
    else body = large ? await gzipAsync(body) : gzipSync(body);
    res.setHeader('Content-Encoding', encoding);
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Express middleware for the REST paths, mounted at /api before Remix: the API's requests skip the page
 * framework (route matching, fetch Request/Response conversion), which was most of their cost.
 * Anything else under /api (the tRPC endpoint, the event stream, the export download, unknown paths)
 * goes on to the Remix resource routes.
 */
export function restMiddleware(services: Services, context: (req: ExpressRequest) => Promise<Context>) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const route = restRouteOf(req.method, req.path);
    if (!route) return next();
    const requestId = req.id;
    void (async () => {
      // The body was read and bounded (413) by guardBodies in server/doors.ts.
      let session: Promise<Context> | null = null;
      const once = () => (session ??= context(req));
      if (route.protect && !(await once()).session) return sendAnswer(req, res, errorAnswer(401, messages.UNAUTHORIZED!));
      const aborted = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) aborted.abort();
      });
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const answer = await handleRest(services, requestId, once, {
        method: req.method === 'HEAD' ? 'GET' : req.method,
        url: new URL(req.originalUrl, 'http://localhost'),
        // A path whose input is only path parameters takes no body: whatever came is ignored.
        contentType: route.bodyless ? 'application/json' : (req.get('content-type') ?? ''),
        body: route.bodyless ? '{}' : hasBody ? (req.rawBody?.toString('utf8') ?? '') : '',
        signal: aborted.signal,
      });
      await sendAnswer(req, res, answer);
    })().catch(next);
  };
}

/** The message a tRPC error answers with: ours (Swedish) where our code threw it, else a Swedish one for its code. */
function trpcMessage(error: TRPCError, path: string | undefined): string {
  if (error.cause instanceof ZodError) return error.cause.issues[0]?.message || messages.BAD_REQUEST!;
  if (error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(error)) return DATABASE_DOWN_MESSAGE;
  // tRPC itself throws BAD_REQUEST (unreadable input, a malformed batch), NOT_FOUND (no such procedure) and the
  // transport codes, in English; our procedures throw these with a field or at a path that exists.
  const ours =
    ['UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT', 'TOO_MANY_REQUESTS'].includes(error.code) ||
    (error.code === 'NOT_FOUND' && !!path && path in appRouter._def.procedures) ||
    (error.code === 'BAD_REQUEST' && typeof (error.cause as { field?: unknown } | undefined)?.field === 'string');
  return userMessage(error.code, error.message, ours);
}

/** The native tRPC endpoint for the browser's @trpc/client (batching on). */
export function handleTrpc(services: Services, ctx: Context, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const calls = url.pathname.replace(/^\/api\/trpc\/?/i, '').split(',').length;
  // Refused before any procedure runs: one request must not fan out into a thousand queries.
  if (url.searchParams.get('batch') === '1' && calls > MAX_BATCH_CALLS) {
    return Promise.resolve(Response.json({ error: t.refused.batchTooLarge(MAX_BATCH_CALLS), issues: [] }, { status: 400, headers: { 'Cache-Control': 'no-store' } }));
  }
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    router: appRouter,
    req: request,
    createContext: () => ctx,
    onError: ({ error, path }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR' && !isDatabaseUnavailable(error)) services.log.error({ reqId: ctx.requestId, err: error.cause ?? error }, 'trpc error');
      // The answer is shaped after onError: what it says is decided here (never a library or driver text).
      error.message = trpcMessage(error, path);
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
