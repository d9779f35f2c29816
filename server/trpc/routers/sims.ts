// sims procedures.
import { router } from '../trpc.js';

export const simsRouter = router({});
