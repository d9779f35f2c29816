// The app router: every business operation is one procedure, grouped by domain (one file each in routers/).
import { z } from 'zod';
import { databaseIsUp } from '#server/db/health.ts';
import { publicProcedure, router } from './trpc.ts';
import { adminRouter } from './routers/admin.ts';
import { apiKeysRouter } from './routers/api-keys.ts';
import { networkKeysRouter } from './routers/network-keys.ts';
import { authRouter } from './routers/auth.ts';
import { companyRouter } from './routers/company.ts';
import { exportRouter } from './routers/export.ts';
import { feedbackRouter } from './routers/feedback.ts';
import { plansRouter } from './routers/plans.ts';
import { simsRouter } from './routers/sims.ts';
import { webhooksRouter } from './routers/webhooks.ts';
import { passkeysRouter } from './routers/passkeys.ts';
import { ssoRouter } from './routers/sso.ts';
import { sessionsRouter } from './routers/sessions.ts';
import { networkRouter } from './routers/network.ts';
import { simUsageRouter } from './routers/sim-usage.ts';
import { usageRouter } from './routers/usage.ts';
import { tagsRouter } from './routers/tags.ts';
import { rulesRouter } from './routers/rules.ts';

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
  tags: tagsRouter,
  export: exportRouter,
  feedback: feedbackRouter,
  company: companyRouter,
  webhooks: webhooksRouter,
  apiKeys: apiKeysRouter,
  networkKeys: networkKeysRouter,
  passkeys: passkeysRouter,
  sso: ssoRouter,
  sessions: sessionsRouter,
  network: networkRouter,
  simUsage: simUsageRouter,
  usage: usageRouter,
  rules: rulesRouter,
});

export type AppRouter = typeof appRouter;
