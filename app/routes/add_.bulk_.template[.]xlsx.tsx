// GET /add/bulk/template.xlsx: the bulk list's template, logged-in only. See bulkTemplateLoader.
import { bulkTemplateLoader } from '#app/utils/bulk-files.server.ts';

export const loader = bulkTemplateLoader('xlsx');
