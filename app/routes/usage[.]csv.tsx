// GET /usage.csv: the /usage page's rows as CSV. See usageFileLoader.
import { usageFileLoader } from '#app/utils/usage-files.server.ts';

export const loader = usageFileLoader('csv');
