// The e-mail field of the login forms, read from a form post or a JSON body and checked by the
// auth.requestLink procedure's own schema.
import { EMAIL_MAX } from '#domain/companies/user-schemas.ts';
import { requestLinkInput } from '#domain/auth/schemas.ts';
import { isJson } from '#server/http/media-type.ts';
import { fieldConstraint } from './constraints.ts';

/** The e-mail field's HTML constraints, for the loaders of the pages with a login form. */
export const loginConstraint = () => fieldConstraint(requestLinkInput.shape.destination);

export async function readLoginInput(request: Request) {
  let raw: Record<string, unknown> = {};
  if (isJson(request.headers.get('content-type'))) {
    try {
      const body = await request.json();
      if (body && typeof body === 'object') raw = body as Record<string, unknown>;
    } catch {
      raw = {};
    }
  } else {
    raw = Object.fromEntries(await request.formData());
  }
  const parsed = requestLinkInput.safeParse(raw);
  // Sent back into the form after a refusal: never more than the field can hold.
  return { parsed, value: typeof raw.destination === 'string' ? raw.destination.slice(0, EMAIL_MAX) : '' };
}
