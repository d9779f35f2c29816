// The one error model: each domain error, a refused input, a library's refusal, an unreachable database and
// a bug, through the real base procedure (createCaller, as loaders use it) and tRPC's own HTTP adapter
// (the errorFormatter), then httpError, the body every door answers with.
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpError } from '#server/http/answer.ts';
import { Conflict, Forbidden, Invalid, issuesOf, NotFound, Unauthenticated, type DomainError } from '#domain/errors.ts';
import type { Context } from '#server/trpc/context.ts';
import { createCallerFactory, publicProcedure, router } from '#server/trpc/trpc.ts';

let toThrow: unknown = null;
const testRouter = router({
  fail: publicProcedure.query(() => {
    throw toThrow;
  }),
  typed: publicProcedure.input(z.object({ n: z.number() })).query(({ input }) => input.n),
});
const ctx = { requestId: 'req-1' } as Context;
const caller = createCallerFactory(testRouter)(ctx);

async function thrownBy(call: () => Promise<unknown>): Promise<TRPCError> {
  const err = await call().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}

async function overHttp(path: string) {
  const res = await fetchRequestHandler({
    endpoint: '/trpc',
    router: testRouter,
    req: new Request(`http://x/trpc/${path}`),
    createContext: () => ctx,
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      error: { message: string; data: { code: string; issues: unknown; stack?: unknown } };
    },
  };
}

const cases: Array<[string, DomainError, string, number, { error: string; issues: unknown[] }]> = [
  [
    'Invalid on a field',
    Invalid.field('iccid', 'Fel ICCID.'),
    'BAD_REQUEST',
    400,
    { error: 'Fel ICCID.', issues: [{ path: ['iccid'], message: 'Fel ICCID.' }] },
  ],
  [
    'Conflict on a field',
    new Conflict('Upptaget.', 'email'),
    'CONFLICT',
    409,
    { error: 'Upptaget.', issues: [{ path: ['email'], message: 'Upptaget.' }] },
  ],
  [
    'Conflict on no field',
    new Conflict('Äldre abonnemang.'),
    'CONFLICT',
    409,
    { error: 'Äldre abonnemang.', issues: [] },
  ],
  ['NotFound', new NotFound('Finns inte.'), 'NOT_FOUND', 404, { error: 'Finns inte.', issues: [] }],
  ['Forbidden', new Forbidden('Nej.'), 'FORBIDDEN', 403, { error: 'Nej.', issues: [] }],
  ['Unauthenticated', new Unauthenticated('Logga in.'), 'UNAUTHORIZED', 401, { error: 'Logga in.', issues: [] }],
];

describe('domain errors', () => {
  it.each(cases)(
    '%s: the tRPC code, the same issues for a caller, and the HTTP answer',
    async (_name, error, code, status, body) => {
      toThrow = error;
      const thrown = await thrownBy(() => caller.fail());
      expect(thrown.code).toBe(code);
      expect(thrown.message).toBe(body.error);
      expect(issuesOf(thrown)).toEqual(body.issues);
      expect(httpError(thrown)).toEqual({ status, body, headers: {}, unexpected: false });
      expect(httpError(error).body).toEqual(body);

      const http = await overHttp('fail');
      expect(http.status).toBe(status);
      expect(http.body.error.message).toBe(body.error);
      expect(http.body.error.data).toMatchObject({ code, issues: body.issues });
      expect(http.body.error.data.stack).toBeUndefined();
    },
  );
});

describe('everything else that is thrown', () => {
  it('a refused input becomes Invalid: issues in the one encoding, its first message as the error', async () => {
    // @ts-expect-error a text where the input type says a number, on purpose: the procedure's schema refuses it
    const thrown = await thrownBy(() => caller.typed({ n: 'x' }));
    expect(thrown.code).toBe('BAD_REQUEST');
    expect(thrown.cause).toBeInstanceOf(Invalid);
    const issues = issuesOf(thrown);
    expect(issues).toEqual([{ path: ['n'], message: expect.stringContaining('n') }]);
    expect(httpError(thrown)).toMatchObject({ status: 400, body: { error: issues[0]!.message, issues } });
  });

  it("a library's own refusal gets its code's Swedish text, never the English one", () => {
    const answer = httpError(
      new TRPCError({
        code: 'METHOD_NOT_SUPPORTED',
        message: 'Unsupported GET-request to mutation procedure at path "x"',
      }),
    );
    expect(answer).toEqual({
      status: 405,
      body: { error: 'Metoden stöds inte för den här sökvägen.', issues: [] },
      headers: {},
      unexpected: false,
    });
    expect(httpError(new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE' })).status).toBe(400);
  });

  it('a bug is a 500 with the request id and no internals, over HTTP too', async () => {
    toThrow = new Error('relation "sim" does not exist at /srv/app/server/sims/service.ts:12');
    const thrown = await thrownBy(() => caller.fail());
    expect(thrown.code).toBe('INTERNAL_SERVER_ERROR');
    expect(httpError(thrown, 'req-1')).toEqual({
      status: 500,
      body: { error: 'Något gick fel på servern.', issues: [], requestId: 'req-1' },
      headers: {},
      unexpected: true,
    });
    const http = await overHttp('fail');
    expect(http.status).toBe(500);
    expect(JSON.stringify(http.body)).not.toMatch(/relation|\/srv|service\.ts/);
    expect(http.body.error.message).toBe('Något gick fel på servern.');
  });

  it('an unreachable database is a 503 with Retry-After', async () => {
    toThrow = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const thrown = await thrownBy(() => caller.fail());
    expect(httpError(thrown, 'req-2')).toEqual({
      status: 503,
      body: { error: 'Databasen går inte att nå just nu. Försök igen om en stund.', issues: [], requestId: 'req-2' },
      headers: { 'Retry-After': '5' },
      unexpected: false,
    });
  });

  it('something that is not even an Error is a 500', () => {
    expect(httpError('boom')).toMatchObject({ status: 500, body: { error: 'Något gick fel på servern.', issues: [] } });
  });
});
