// Every schema whose constraints a page puts on its fields, pinned whole: a change to a schema or to
// app/utils/constraints.ts that changes what a browser checks shows up here. And what @conform-to/zod's
// getZodConstraint makes of the same schemas, pinned too: docs/decisions/024-ui-plumbing.md keeps the hand-written
// reading because the library loses the lengths and bounds and asks for every checkbox; when an upgrade changes
// that, this test says so and the decision can be made again.
import { getZodConstraint } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { constraints, fieldConstraint } from '#app/utils/constraints.ts';
import { requestLinkInput } from '#domain/auth/schemas.ts';
import { auditTrailQuery, companyUserCreateInput, companyUserUpdateInput } from '#domain/companies/owner-schemas.ts';
import { createCompanyInput, listQuery as companyList, updateCompanyInput } from '#domain/companies/schemas.ts';
import { createUserInput, updateUserInput } from '#domain/companies/user-schemas.ts';
import { feedbackInput } from '#domain/feedback/schemas.ts';
import { activateInput, bulkActivateInput, editInput, listQuery as simList } from '#domain/sims/schemas.ts';
import { webhookCreateInput } from '#domain/webhooks/schemas.ts';

const id = { required: true, inputMode: 'numeric', step: 1, min: 1, max: 2_147_483_647 };
const dataLimit = { required: true, inputMode: 'numeric', step: 1, min: 1, max: 10_000_000 };
const mark = { maxLength: 200 };
const userName = { required: true, minLength: 1, maxLength: 200 };
const email = { required: true, maxLength: 254, inputMode: 'email' };
const companyName = { required: true, minLength: 1, maxLength: 200 };
const customerNumber = { required: true, minLength: 1, maxLength: 50 };

describe('the constraints the pages put on their fields', () => {
  it('SIM forms: /add, /add/bulk, /sims/:id', () => {
    expect(constraints(activateInput)).toEqual({
      // An empty ICCID is the procedure's to refuse, in words (its check digit, its length).
      iccid: { maxLength: 100 },
      dataLimit,
      callAndSms: {},
      roaming: {},
      invoiceLineMark: mark,
      invoiceLineNote: mark,
      // Tags at activation (issue 40): a list, no form field of its own yet.
      tags: {},
    });
    expect(constraints(bulkActivateInput)).toEqual({
      iccids: {},
      rows: {},
      dataLimit,
      callAndSms: {},
      roaming: {},
      invoiceLineMark: mark,
      invoiceLineNote: mark,
      tags: {},
      dryRun: {},
    });
    expect(constraints(editInput)).toEqual({
      id,
      dataLimit,
      callAndSms: {},
      roaming: {},
      invoiceLineMark: mark,
      invoiceLineNote: mark,
    });
  });

  it('company and user forms: /admin/companies, /company, /company/users/:id, webhooks, feedback', () => {
    expect(constraints(createCompanyInput)).toEqual({
      name: companyName,
      customerNumber,
      invoiceNote: { maxLength: 200 },
      invoiceInterval: {},
    });
    expect(constraints(updateCompanyInput)).toEqual({
      id,
      name: companyName,
      customerNumber,
      invoiceNote: { maxLength: 200 },
      invoiceInterval: { required: true },
    });
    expect(constraints(createUserInput)).toEqual({ name: userName, email, companyId: id, role: {} });
    expect(constraints(updateUserInput)).toEqual({
      id,
      name: userName,
      email,
      isCompanyOwner: {},
      isSuperAdmin: {},
      role: {},
      companyId: { inputMode: 'numeric', step: 1, min: 1, max: 2_147_483_647 },
    });
    expect(constraints(companyUserCreateInput)).toEqual({ name: userName, email, role: { required: true } });
    expect(constraints(companyUserUpdateInput)).toEqual({ id, name: userName, email, role: { required: true } });
    expect(constraints(feedbackInput)).toEqual({ message: { required: true, minLength: 1, maxLength: 5000 } });
    expect(constraints(webhookCreateInput)).toEqual({
      url: { required: true, minLength: 1, maxLength: 2000 },
      events: {},
    });
  });

  it('single fields: the searches, the audit filter, the login address', () => {
    expect(fieldConstraint(simList.shape.q)).toEqual({ maxLength: 200 });
    expect(fieldConstraint(companyList.q)).toEqual({ maxLength: 200 });
    expect(fieldConstraint(auditTrailQuery.shape.customerNumber)).toEqual({ maxLength: 50 });
    expect(fieldConstraint(requestLinkInput.shape.destination)).toEqual(email);
  });
});

describe('getZodConstraint (@conform-to/zod 1.21.1 with zod 4.6) on the same schemas', () => {
  it('reads no length or bound, and asks for every non-optional field, checkboxes and empty texts too', () => {
    // zod 4.6 keeps a check's limits in its definition, not in the schema's `bag` the library reads.
    expect({ ...getZodConstraint(createUserInput) }).toEqual({
      name: { required: true },
      email: { required: true },
      companyId: { required: true },
      role: { required: false, pattern: 'owner|member|viewer' },
    });
    expect({ ...getZodConstraint(activateInput) }).toEqual({
      // required on an ICCID field stops an empty post before the procedure can say what is wrong, and on a
      // checkbox makes it mandatory to tick.
      iccid: { required: true },
      dataLimit: { required: true },
      callAndSms: { required: true },
      roaming: { required: true },
      invoiceLineMark: { required: true },
      invoiceLineNote: { required: true },
      tags: { required: false, multiple: true },
      'tags[]': { required: true },
    });
  });
});
