// The app router: every business operation is one procedure, grouped by domain (one file each in routers/).
import { z } from 'zod';
import { databaseIsUp } from '../db/health.js';
import { publicProcedure, router } from './trpc.js';
import { adminRouter } from './routers/admin.js';
import { apiKeysRouter } from './routers/api-keys.js';
import { authRouter } from './routers/auth.js';
import { companyRouter } from './routers/company.js';
import { exportRouter } from './routers/export.js';
import { feedbackRouter } from './routers/feedback.js';
import { plansRouter } from './routers/plans.js';
import { simsRouter } from './routers/sims.js';
import { webhooksRouter } from './routers/webhooks.js';

export const appRouter = router({
  health: publicProcedure
    .output(z.object({ status: z.literal('ok'), db: z.enum(['ok', 'down']) }))
    .query(async ({ ctx }) => ({
      status: 'ok' as const,
      db: (await databaseIsUp(ctx.services.orm)) ? ('ok' as const) : ('down' as const),
    })),
  auth: authRouter,
  admin: adminRouter,
  plans: plansRouter,
  sim: simsRouter,
  export: exportRouter,
  feedback: feedbackRouter,
  company: companyRouter,
  webhooks: webhooksRouter,
  apiKeys: apiKeysRouter,
});

export type AppRouter = typeof appRouter;
