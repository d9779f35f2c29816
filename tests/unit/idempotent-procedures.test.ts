// The Idempotency-Key is the procedure's own (decision 032): a procedure whose meta says `idempotent: true` uses
// the `idempotent` middleware after its kind's checks and before its input, and no other procedure uses it. This
// reads tRPC's definition of each procedure (its middleware list, in order) so a new write cannot declare the key
// and forget the middleware, or take it before its role check.
import { describe, expect, it } from 'vitest';
import { appRouter } from '#server/trpc/router.ts';
import { metaOf } from '#server/trpc/meta.ts';
import { idempotent } from '#server/trpc/trpc.ts';

type Middleware = ((...args: unknown[]) => unknown) & { _type?: string };
type Def = { middlewares: Middleware[]; meta?: unknown };

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: Def }>);
const [idempotentMiddleware] = (idempotent as unknown as { _middlewares: Middleware[] })._middlewares;

describe('the idempotent middleware', () => {
  it('is used by exactly the procedures that declare idempotent: true, after the checks and before the input', () => {
    expect(idempotentMiddleware).toBeTypeOf('function');
    const declared = procedures.filter(([, p]) => metaOf(p).idempotent === true).map(([path]) => path);
    const using = procedures.filter(([, p]) => p._def.middlewares.includes(idempotentMiddleware as Middleware));
    expect(using.map(([path]) => path).sort()).toEqual(declared.sort());
    expect(declared.length).toBeGreaterThanOrEqual(25);
    for (const [path, p] of using) {
      const list = p._def.middlewares;
      const at = list.indexOf(idempotentMiddleware as Middleware);
      const input = list.findIndex((m) => m._type === 'input');
      expect({ path, beforeInput: input === -1 || at < input }).toEqual({ path, beforeInput: true });
      // After it only the input's and the output's parsers and the resolver: every check of the kind ran before.
      const after = list.slice(at + 1, -1).filter((m) => m._type !== 'input' && m._type !== 'output');
      expect({ path, checksAfter: after.length }).toEqual({ path, checksAfter: 0 });
    }
  });
});
