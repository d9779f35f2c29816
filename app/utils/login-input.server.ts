// The e-mail field of the login forms, read from a form post or a JSON body.
import { z } from 'zod';
import { t } from '~/texts';

/** The longest e-mail address (RFC 5321), as the field's maxLength. */
const EMAIL_MAX = 254;

const schema = z.object({
  destination: z.string(t.login.emailInvalid).trim().max(EMAIL_MAX, t.login.emailInvalid).pipe(z.email(t.login.emailInvalid)),
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
  // Sent back into the form after a refusal: never more than the field can hold.
  return { parsed, value: typeof raw.destination === 'string' ? raw.destination.slice(0, EMAIL_MAX) : '' };
}
