// The e-mail field of the login forms, read from a form post or a JSON body.
import { z } from 'zod';
import { t } from '~/texts';

const schema = z.object({
  destination: z.string(t.login.emailInvalid).trim().max(254, t.login.emailInvalid).pipe(z.email(t.login.emailInvalid)),
  redirectTo: z.string().max(2000).optional().nullable(),
});

export async function readLoginInput(request: Request) {
  let raw: Record<string, unknown> = {};
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      const body = await request.json();
      if (body && typeof body === 'object') raw = body as Record<string, unknown>;
    } catch {
      raw = {};
    }
  } else {
    raw = Object.fromEntries(await request.formData());
  }
  const parsed = schema.safeParse(raw);
  return { parsed, value: typeof raw.destination === 'string' ? raw.destination : '' };
}
