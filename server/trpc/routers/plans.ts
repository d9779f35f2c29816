// Rate plans a user can choose.
import { z } from '../../zod.js';
import { ratePlanOutput } from '../../sims/schemas.js';
import { selectablePlans } from '../../sims/service.js';
import { companyProcedure, router } from '../trpc.js';

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
