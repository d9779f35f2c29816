// The sessions procedures (filled in by their feature).
import { router } from '#server/trpc/trpc.ts';

export const sessionsRouter = router({});
