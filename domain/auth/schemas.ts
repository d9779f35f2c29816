// The login request's input (POST /auth/login, the login forms, the auth.requestLink procedure). Pure zod.
import { z } from '#domain/zod.ts';
import { emailAddress } from '#domain/companies/user-schemas.ts';

export const requestLinkInput = z.object({
  destination: emailAddress,
  redirectTo: z.string().max(2000).nullish(),
});
