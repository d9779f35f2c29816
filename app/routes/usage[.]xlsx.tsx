// GET /usage.xlsx: the /usage page's rows as XLSX. See usageFileLoader.
import { usageFileLoader } from '#app/utils/usage-files.server.ts';

export const loader = usageFileLoader('xlsx');
