// In-process calls from Remix loaders and actions: the same procedures, checks and validation as HTTP.
import { createCallerFactory } from './trpc.ts';
import { appRouter } from './router.ts';
import type { Context } from './context.ts';

const factory = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof factory>;
export const createCaller = (ctx: Context): Caller => factory(ctx);
