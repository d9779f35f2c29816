// Input and output schemas of the user procedures, and the one e-mail rule (the login form's too). Pure zod
// (no database code), so forms import them for their HTML constraints (app/utils/constraints.ts).
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { rowId, z } from '#domain/zod.ts';
import { USER_ROLES } from './kinds.ts';

/** The longest e-mail address (RFC 5321). */
export const EMAIL_MAX = 254;
export const USER_LIMITS = { name: 200, email: EMAIL_MAX } as const;

export const EMAIL_INVALID = t.login.emailInvalid;

/** An e-mail address as typed: trimmed, at most EMAIL_MAX characters, then checked. */
export const emailAddress = z
  .string({ error: EMAIL_INVALID })
  .trim()
  .max(EMAIL_MAX, t.errors.fields.maxChars(t.errors.fields.email, EMAIL_MAX))
  .pipe(z.email(EMAIL_INVALID));

/** owner, member or viewer. */
export const userRole = z.enum(USER_ROLES, { error: tCompany.errors.role });

export const userFields = {
  name: z
    .string({ error: t.errors.fields.text(t.errors.fields.userName) })
    .trim()
    .min(1, t.errors.fields.userNameMissing)
    .max(USER_LIMITS.name, t.errors.fields.maxChars(t.errors.fields.userName, USER_LIMITS.name)),
  email: emailAddress,
};

export const createUserInput = z.object({
  name: userFields.name,
  email: userFields.email,
  companyId: rowId(),
  /** The role in the company; member when left out. */
  role: userRole.optional(),
});
export const updateUserInput = z.object({
  id: rowId(),
  name: userFields.name,
  email: userFields.email,
  isCompanyOwner: z.boolean({ error: t.validation.type('isCompanyOwner', t.validation.types.boolean) }),
  isSuperAdmin: z.boolean({ error: t.validation.type('isSuperAdmin', t.validation.types.boolean) }),
  /**
   * The role; when given it decides and isCompanyOwner must agree with it. Left out, isCompanyOwner decides:
   * true makes an owner, false makes an owner a member and leaves a member or viewer as they are.
   */
  role: userRole.optional(),
  /** When given (the company in the page's URL), the user must belong to it. */
  companyId: rowId().optional(),
});

export const userOutput = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  companyId: z.number(),
  isCompanyOwner: z.boolean(),
  isSuperAdmin: z.boolean(),
  role: userRole,
});
export type UserView = z.infer<typeof userOutput>;
