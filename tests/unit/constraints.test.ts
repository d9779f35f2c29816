// The forms' HTML constraints come from the procedures' own schemas (app/utils/constraints.ts): each limit
// the services define is what the form's fields get, and what zod's definitions say is read correctly.
import { describe, expect, it } from 'vitest';
import { constraints, fieldConstraint } from '#app/utils/constraints.ts';
import { requestLinkInput } from '#domain/auth/schemas.ts';
import { COMPANY_LIMITS, createCompanyInput, updateCompanyInput } from '#domain/companies/schemas.ts';
import { FEEDBACK_MAX, feedbackInput } from '#domain/feedback/schemas.ts';
import { activateInput, editInput, MARK_MAX } from '#domain/sims/schemas.ts';
import { createUserInput, EMAIL_MAX, USER_LIMITS } from '#domain/companies/user-schemas.ts';
import { z } from '#domain/zod.ts';

describe('constraints from the procedures’ schemas', () => {
  it('gives the company, user, feedback, SIM and login forms the services’ limits', () => {
    expect(constraints(createCompanyInput)).toEqual({
      name: { required: true, minLength: 1, maxLength: COMPANY_LIMITS.name },
      customerNumber: { required: true, minLength: 1, maxLength: COMPANY_LIMITS.customerNumber },
      // A default makes a field optional; an enum is a choice.
      invoiceNote: { maxLength: COMPANY_LIMITS.invoiceNote },
      invoiceInterval: {},
    });
    expect(constraints(updateCompanyInput).invoiceInterval).toEqual({ required: true });
    expect(constraints(createUserInput)).toMatchObject({
      name: { required: true, minLength: 1, maxLength: USER_LIMITS.name },
      email: { required: true, maxLength: EMAIL_MAX, inputMode: 'email' },
    });
    expect(constraints(feedbackInput).message).toEqual({ required: true, minLength: 1, maxLength: FEEDBACK_MAX });
    // A mark is capped raw (10,000) and trimmed (MARK_MAX): the form allows the smaller.
    for (const schema of [activateInput, editInput]) {
      expect(constraints(schema)).toMatchObject({
        invoiceLineMark: { maxLength: MARK_MAX },
        invoiceLineNote: { maxLength: MARK_MAX },
      });
    }
    expect(constraints(activateInput).dataLimit).toEqual({
      required: true,
      inputMode: 'numeric',
      step: 1,
      min: 1,
      max: 10_000_000,
    });
    expect(fieldConstraint(requestLinkInput.shape.destination)).toEqual({
      required: true,
      maxLength: EMAIL_MAX,
      inputMode: 'email',
    });
  });

  it('reads lengths, patterns and bounds through optional, default and pipe', () => {
    expect(fieldConstraint(z.string().length(4))).toEqual({ minLength: 4, maxLength: 4, required: true });
    expect(
      fieldConstraint(
        z
          .string()
          .regex(/^[A-Z]{2}\d+$/)
          .optional(),
      ),
    ).toEqual({ pattern: '[A-Z]{2}\\d+' });
    expect(fieldConstraint(z.coerce.number().int().gt(0).lt(13))).toEqual({
      required: true,
      inputMode: 'numeric',
      step: 1,
      min: 1,
      max: 12,
    });
    expect(fieldConstraint(z.number().min(0.5).max(2))).toEqual({
      required: true,
      inputMode: 'numeric',
      min: 0.5,
      max: 2,
    });
    expect(fieldConstraint(z.string().default('').pipe(z.string().max(3)))).toEqual({ maxLength: 3 });
    expect(fieldConstraint(z.boolean())).toEqual({});
  });
});
