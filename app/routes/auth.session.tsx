// GET /auth/session: { authenticated, isSuperAdmin }; never a 401.
import type { LoaderFunctionArgs } from '@remix-run/node';

export async function loader({ context }: LoaderFunctionArgs) {
  return Response.json(await context.trpc.auth.session(), { headers: { 'Cache-Control': 'no-store' } });
}
