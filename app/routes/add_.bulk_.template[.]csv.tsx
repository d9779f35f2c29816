// GET /add/bulk/template.csv: the bulk list's template (issue 15), logged-in only. See bulkTemplateLoader.
import { bulkTemplateLoader } from '#app/utils/bulk-files.server.ts';

export const loader = bulkTemplateLoader('csv');
