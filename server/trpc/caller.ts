// In-process calls from Remix loaders and actions: the same procedures, checks and validation as HTTP.
import { createCallerFactory } from './trpc.js';
import { appRouter } from './router.js';
import type { Context } from './context.js';

const factory = createCallerFactory(appRouter);
export type Caller = ReturnType<typeof factory>;
export const createCaller = (ctx: Context): Caller => factory(ctx);
