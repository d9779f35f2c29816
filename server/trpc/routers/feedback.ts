// feedback procedures.
import { router } from '../trpc.js';

export const feedbackRouter = router({});
