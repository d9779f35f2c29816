// The REST door: the spec's REST paths (their route table: server/http/rest-routes.ts), answered by Express before
// Remix by calling the procedure through the tRPC caller. Here: 401 before the body is looked at, the input shaped
// (query or JSON body, path parameters), Swedish { error, issues } answers (server/http/answer.ts), compression in
// one go with the answer's length, the writes' Idempotency-Key read into the context (server/http/idempotency.ts;
// the procedure's middleware does the rest). The OpenAPI document: ./openapi.ts.
import { TRPCError } from '@trpc/server';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { t } from '#domain/texts/common.ts';
import { httpError } from './answer.ts';
import { errorBody, Invalid, Unauthenticated } from '#domain/errors.ts';
import { RateLimited } from './rate-limits.ts';
import { endInOneGo } from './compress.ts';
import type { Services } from '#server/services.ts';
import type { Context } from '#server/trpc/context.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { weightOf } from '#server/trpc/meta.ts';
import { idempotentAnswerIn, type IdempotentCall } from '#server/trpc/idempotency.ts';
import { idempotencyOf } from './idempotency.ts';
import { isJson } from './media-type.ts';
import { fromQuery } from './query-input.ts';
import { restRouteOf, type RestRoute } from './rest-routes.ts';

/** Answers a refusal of an API path (the REST door, the event stream) in the one error shape. */
export function sendRestError(req: Request, res: Response, err: unknown, log: Services['log']): void {
  const answer =
    err instanceof RateLimited
      ? {
          status: 429,
          body: errorBody(err.message),
          headers: { 'Retry-After': String(err.retryAfterSeconds) },
          unexpected: false,
        }
      : httpError(err, req.id);
  if (answer.unexpected)
    log.error({ reqId: req.id, err: err instanceof TRPCError ? (err.cause ?? err) : err }, 'api error');
  if (res.headersSent) return void res.end();
  res
    .status(answer.status)
    .set({ ...answer.headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    .end(JSON.stringify(answer.body));
}

/** Makes this response's one res.end(text) (how the door answers) compressed in one go and sized. */
function compressOnEnd(req: Request, res: Response): void {
  const end = res.end.bind(res) as (chunk?: Buffer) => Response;
  res.end = ((chunk?: string | Buffer) => {
    endInOneGo(req, res, chunk === undefined ? Buffer.alloc(0) : Buffer.from(chunk), end);
    return res;
  }) as Response['end'];
}

// The door calls the procedure itself, through the same tRPC caller as a page's loader (server/trpc/caller.ts):
// the same middleware, role checks and validation. It takes the input as trpc-to-openapi's handler did (query or
// JSON body, path parameters over both, a query's empty value left out, a lone value of a list field made a list,
// a query's or path's strings read as the field's type) but a JSON body as JSON (the library made every input
// schema coerce, for every door: "false" was true), without that handler's per-request work (bench:load).

/** What a REST call costs the budgets, as its procedure declares it (a bulk call weighs its list); at least 1. */
function restWeight(req: Request, route: RestRoute): number {
  if (!route.meta.weighs || !req.rawBody?.length) return 1;
  try {
    return weightOf(route.meta, JSON.parse(req.rawBody.toString('utf8')));
  } catch {
    return 1; // the door refuses it with 400
  }
}

/** The body read by guardBodies, parsed as JSON. */
function parsedBody(req: Request): unknown {
  try {
    return JSON.parse(req.rawBody?.toString('utf8') ?? '');
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', cause });
  }
}

/** The input of a REST call: the query (GET, DELETE) or the JSON body, with the path parameters over it. */
function restInput(req: Request, route: RestRoute, params: Record<string, string>): unknown {
  if (route.noInput) return undefined;
  const takesBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  let input: Record<string, unknown>;
  if (!takesBody) {
    input = {};
    for (const [key, value] of Object.entries(req.query)) {
      if (!value) continue; // ?q= is no q at all
      input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
    }
    for (const key of route.listFields)
      if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
    fromQuery(input, route.queryKinds);
  } else if (route.bodyless) {
    input = {}; // whatever body came is ignored
  } else {
    const type = req.get('content-type');
    if (!isJson(type))
      throw new TRPCError({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: type ? `Unsupported content-type "${type}` : 'Missing content-type header',
      });
    input = { ...(parsedBody(req) as object) };
  }
  return { ...input, ...fromQuery({ ...params }, route.queryKinds) };
}

/**
 * Express middleware for the REST paths, mounted at /api before Remix: the API's requests skip the page
 * framework (route matching, fetch Request/Response conversion), which was most of their cost (ADR 003).
 * Any other /api path goes on (next).
 */
export function restDoor(
  services: Services,
  contextOf: (req: Request, weight: number, idempotency: IdempotentCall | null) => Promise<Context>,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const found = restRouteOf(req.method, req.path);
    if (!found) return next();
    const { route, params } = found;
    // A write's Idempotency-Key goes into the context, for the procedure's middleware (server/trpc/idempotency.ts).
    const idempotency = route.meta.idempotent ? idempotencyOf(req) : null;
    const context = contextOf(req, restWeight(req, route), idempotency instanceof Invalid ? null : idempotency);
    compressOnEnd(req, res);
    void (async () => {
      const ctx = await context;
      if (route.protect && !ctx.session && !ctx.apiKey && !ctx.networkKey)
        throw new Unauthenticated(t.errors.unauthenticated);
      if (idempotency instanceof Invalid) throw idempotency;
      const input = restInput(req, route, params);
      let call: unknown = createCaller(ctx);
      for (const segment of route.procedure) call = (call as Record<string, unknown>)[segment];
      let answer: { status: number; body: string; headers: Record<string, string>; replayed: boolean };
      try {
        const output = await (call as (input: unknown) => Promise<unknown>)(input);
        answer = { status: 200, body: JSON.stringify(output) ?? '', headers: {}, replayed: false };
      } catch (err) {
        // A stored answer replayed, or the key's own refusal: sent as it is, with its link.
        const stored = idempotentAnswerIn(err);
        if (!stored) throw err;
        answer = stored;
        if (stored.link) ctx.resHeaders.set('link', stored.link);
      }
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Cache-Control', 'no-store');
      const cookie = ctx.resHeaders.get('set-cookie');
      if (cookie && !answer.replayed) res.setHeader('Set-Cookie', cookie);
      // A list's next page (GET /api/sim/all, RFC 8288).
      const link = ctx.resHeaders.get('link');
      if (link) res.setHeader('Link', link);
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.end(answer.body);
    })().catch((err: unknown) => sendRestError(req, res, err, services.log));
  };
}
