// GET /company/activity.csv?kind= : the company's activity trail as a CSV file (the activity page's link).
// Owners only, as the page; an unknown kind is the whole trail.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwner } from '#app/utils/auth.server.ts';
import { pageError } from '#app/utils/forms.server.ts';
import { AUDIT_KINDS, type AuditKind } from '#domain/companies/kinds.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOwner(request, context);
  const raw = new URL(request.url).searchParams.get('kind');
  const kind = AUDIT_KINDS.includes(raw as AuditKind) ? (raw as AuditKind) : undefined;
  try {
    const file = await context.trpc.company.auditCsv({ kind });
    return new Response(file.csv, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (e) {
    pageError(e);
  }
}
