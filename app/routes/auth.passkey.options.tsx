// POST /auth/passkey/options: a passkey ceremony's options for the browser's script (app/components/security/).
import type { ActionFunctionArgs } from '@remix-run/node';
import { passkeyOptions } from '#app/utils/passkeys.server.ts';

export const action = ({ request, context }: ActionFunctionArgs) => passkeyOptions(request, context);

export function loader() {
  return Response.json({ error: 'Använd POST.', issues: [] }, { status: 405, headers: { Allow: 'POST' } });
}
