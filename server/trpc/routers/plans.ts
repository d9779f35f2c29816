// plans procedures.
import { router } from '../trpc.js';

export const plansRouter = router({});
