// The company's usage (issue 39): totals per day and month, by SIM, plan and country; GET /api/usage.
import { router } from '#server/trpc/trpc.ts';

export const usageRouter = router({});
