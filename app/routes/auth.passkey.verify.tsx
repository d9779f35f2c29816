// POST /auth/passkey/verify: the browser's answer to a passkey ceremony (app/components/security/).
import type { ActionFunctionArgs } from '@remix-run/node';
import { passkeyVerify } from '#app/utils/passkeys.server.ts';

export const action = ({ request, context }: ActionFunctionArgs) => passkeyVerify(request, context);

export function loader() {
  return Response.json({ error: 'Använd POST.', issues: [] }, { status: 405, headers: { Allow: 'POST' } });
}
