// A SIM's invoice mark and comment, as the single add, the bulk add and the SIM page ask for them: two
// textareas with their limits from the procedure's schema, the entered values kept and errors beside them.
import type { Ref } from 'react';
import type { FieldConstraint } from '#app/utils/constraints.ts';
import { Field } from './Field.tsx';
import { t } from '#domain/texts/common.ts';

type Marks = { invoiceLineMark?: string; invoiceLineNote?: string };

export function SimMarkFields({
  fields,
  values,
  errors,
  hint,
  readOnly,
  markRef,
}: {
  fields: { invoiceLineMark: FieldConstraint; invoiceLineNote: FieldConstraint };
  values: Marks;
  errors: Marks;
  hint?: string;
  readOnly?: boolean;
  /** The mark's textarea, for a page that moves focus there (after a scan). */
  markRef?: Ref<HTMLTextAreaElement>;
}) {
  return (
    <>
      <Field id="invoiceLineMark" label={t.sims.mark} hint={hint} error={errors.invoiceLineMark}>
        {(aria) => (
          <textarea
            {...aria}
            ref={markRef}
            name="invoiceLineMark"
            rows={2}
            {...fields.invoiceLineMark}
            readOnly={readOnly}
            defaultValue={values.invoiceLineMark}
          />
        )}
      </Field>
      <Field id="invoiceLineNote" label={t.sims.note} hint={hint} error={errors.invoiceLineNote}>
        {(aria) => (
          <textarea
            {...aria}
            name="invoiceLineNote"
            rows={2}
            {...fields.invoiceLineNote}
            readOnly={readOnly}
            defaultValue={values.invoiceLineNote}
          />
        )}
      </Field>
    </>
  );
}
