// Page guards for loaders and actions. The tRPC layer checks again; these only decide what page to show.
import { redirect, type AppLoadContext } from '@remix-run/node';

export function requireUser(request: Request, context: AppLoadContext) {
  const session = context.session;
  if (!session) {
    const url = new URL(request.url);
    const target = url.pathname + url.search;
    throw redirect(target === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(target)}`);
  }
  return session;
}

export function requireSuperAdmin(request: Request, context: AppLoadContext) {
  const session = requireUser(request, context);
  if (!session.isSuperAdmin) throw new Response('Forbidden', { status: 403 });
  return session;
}
