// Any unknown path: the login screen when logged out, else a Swedish 404 page.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireUser } from '#app/utils/auth.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  throw new Response('Not Found', { status: 404 });
}

export default function NotFound() {
  return null;
}
