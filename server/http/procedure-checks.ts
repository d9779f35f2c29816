// A procedure's checks without its work, for the REST door's replay of an Idempotency-Key (decision 028): the
// stored answer of a first request is sent again only to a caller who passes now what that request passed then
// (the session or API key, the role, a recent step-up, the key's scope, the input's parsing).
// The checks are the procedure's own middleware chain, run by tRPC itself up to the resolver: a procedure built
// with the same definition whose resolver is replaced. tRPC keeps the chain in `_def.middlewares`, the resolver
// last (createResolver in @trpc/server 11); `createBuilder` makes a procedure of a definition, as `.use()` does.
import { createBuilder } from '@trpc/server/unstable-core-do-not-import';
import type { Context } from '#server/trpc/context.ts';

type BuilderDef = NonNullable<Parameters<typeof createBuilder>[0]>;
type ProcedureDef = BuilderDef & { middlewares: NonNullable<BuilderDef['middlewares']>; resolver?: unknown };

/**
 * Runs the procedure's middleware chain with `input` as its raw input, and resolves once the chain has reached
 * the place of the resolver (the work is never done). Rejects with the chain's refusal: 401, 403 (a role, a
 * step-up, a read-only key), 400 of the input, as the procedure itself would.
 */
/** A built procedure (a router's leaf), of any kind. */
export type BuiltProcedure = { _def: object };

export async function passChecks(procedure: BuiltProcedure, ctx: Context, input: unknown, path: string): Promise<void> {
  const { middlewares, resolver: _resolver, ...def } = procedure._def as unknown as ProcedureDef;
  let passed = false;
  const checksOnly = createBuilder({ ...def, middlewares: middlewares.slice(0, -1) }).mutation(() => {
    passed = true;
  }) as unknown as (opts: {
    ctx: Context;
    path: string;
    type: 'mutation';
    getRawInput: () => Promise<unknown>;
    signal: AbortSignal | undefined;
    batchIndex: number;
  }) => Promise<unknown>;
  try {
    await checksOnly({
      ctx,
      path,
      type: 'mutation',
      getRawInput: async () => input,
      signal: ctx.signal,
      batchIndex: 0,
    });
  } catch (err) {
    // Past the checks, the output's parser refuses the stand-in resolver's nothing: that is the checks passed.
    if (!passed) throw err;
  }
}
