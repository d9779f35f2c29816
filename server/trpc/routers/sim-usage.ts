// One SIM's usage (issue 39): its month against its plan, its days, its latest sessions; GET /api/sim/{id}/usage.
import { router } from '#server/trpc/trpc.ts';

export const simUsageRouter = router({});
