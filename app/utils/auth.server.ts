// Page guards for loaders and actions. The tRPC layer checks again; these only decide what page to show.
import { redirect, type AppLoadContext } from '@remix-run/node';
import { callerRole, canWrite } from '#domain/companies/kinds.ts';

export function requireUser(request: Request, context: AppLoadContext) {
  const session = context.session;
  if (!session) {
    // Still signing in (a passkey to use or add): nothing else before that.
    if (context.pending) throw redirect('/login/passkey');
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

/** The company's own admin (/company): its owners, and support acting as the company. */
export function requireOwner(request: Request, context: AppLoadContext) {
  const session = requireUser(request, context);
  if (callerRole(session) !== 'owner') throw new Response('Forbidden', { status: 403 });
  return session;
}

/** Pages that only change SIMs (/add, /add/bulk, the deactivation pages): not for a viewer. */
export function requireWriter(request: Request, context: AppLoadContext) {
  const session = requireUser(request, context);
  if (!canWrite(session)) throw new Response('Forbidden', { status: 403 });
  return session;
}
