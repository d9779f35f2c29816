// export procedures.
import { router } from '../trpc.js';

export const exportRouter = router({});
