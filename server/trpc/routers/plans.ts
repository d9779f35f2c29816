// Rate plans a user can choose.
import { z } from '#domain/zod.ts';
import { ratePlanOutput } from '#domain/sims/schemas.ts';
import { selectablePlans } from '#server/sims/changes.ts';
import { companyProcedure, router } from '#server/trpc/trpc.ts';

export const plansRouter = router({
  list: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/rate_plans',
        tags: ['sims'],
        summary: 'Rate plans a user can choose (not legacy)',
      },
    })
    .input(z.void())
    .output(z.array(ratePlanOutput))
    .query(async ({ ctx }) => (await selectablePlans(ctx.em)).map((p) => ({ ...p }))),
});
