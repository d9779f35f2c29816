// /add/bulk's form (app/routes/add_.bulk.tsx): the list, a file, the marks and the plan, posted as they are
// without JS; the preview (the page's own, or the live one) sits between the list and the marks and plan. The list
// is React state (useBulkLive), so a scan, the offline queue or "Töm listan" change it as the user's typing does;
// with JS the live view (BulkLive) previews as the form changes.
import { Form } from '@remix-run/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { BulkFileField, refusedFile } from '#app/components/bulk/BulkFileField.tsx';
import { Field } from '#app/components/Field.tsx';
import { PlanSelector } from '#app/components/PlanSelector.tsx';
import { SimMarkFields } from '#app/components/SimMarkFields.tsx';
import { TagsField } from '#app/components/tags/TagsField.tsx';
import { TAG_MAX } from '#domain/sims/tag-text.ts';
import { tTags } from '#domain/texts/tags.ts';
import { carriedOf, LIST_MAX, type Values } from '#app/bulk/page-values.ts';
import type { FieldConstraint } from '#app/utils/constraints.ts';
import { BULK_MAX } from '#domain/sims/limits.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import type { PlanOption } from '#domain/plans/selector.ts';
import { BulkLive } from './BulkLive.tsx';
import { useBulkLive, type BulkLiveHandle } from './useBulkLive.ts';

/** The page's form: the result's "again" button submits it (its list and choices are the ones just activated). */
export const BULK_FORM_ID = 'bulk-form';

type Props = {
  owner: string;
  plans: PlanOption[];
  fields: { invoiceLineMark: FieldConstraint; invoiceLineNote: FieldConstraint };
  /** The values and errors the server sent back ('form' answers), if any. */
  values: Values | undefined;
  errors: Record<string, string>;
  busy: boolean;
  /** The element under the list for the live preview, progress and result. */
  slot: HTMLElement | null;
  /**
   * What sits between the list and the rest of the form: the page's preview or result, and the slot. Given the live
   * view, so the page's preview can run its activation there (with its progress) once JS is in.
   */
  side: (live: BulkLiveHandle) => ReactNode;
  /** Told whether the live view shows something, so the page hides its own (older) preview or result. */
  onActive: (active: boolean) => void;
};

export function BulkForm({ owner, plans, fields, values: v, errors: e, busy, slot, onActive, side }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const live = useBulkLive({ owner, formRef, fieldRef, initialList: v?.iccids ?? '' });
  const active = live.state.view.kind !== 'idle';
  useEffect(() => onActive(active), [active, onActive]);
  const selection = {
    dataLimit: v?.dataLimit ? Number(v.dataLimit) : null,
    callAndSms: v?.callAndSms ?? false,
    roaming: v?.roaming ?? false,
  };
  return (
    <>
      {/* The list and the file belong to the form below (their form attribute): so the preview can sit right
          under them, on a phone too, without a form inside a form. Both events, as a field's own: input for text
          (also when a script sets the value, as paste tools do, which React's onChange does not report), change
          for the file. */}
      <div className="card bulk-listcard" onInput={live.formChanged} onChange={live.formChanged}>
        <Field id="iccids" label={tBulkAdd.list} hint={tBulkAdd.listHint(BULK_MAX)} error={e.iccids}>
          {(aria) => (
            <textarea
              {...aria}
              ref={fieldRef}
              form={BULK_FORM_ID}
              name="iccids"
              rows={8}
              maxLength={LIST_MAX}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              value={live.list}
              // onInput, not onChange: it also sees a value a script set (a paste tool), which onChange skips;
              // React still wants an onChange beside a value.
              onInput={(event) => live.listEdited(event.currentTarget.value)}
              onChange={() => undefined}
              autoFocus={!!e.iccids}
            />
          )}
        </Field>
        <BulkFileField form={BULK_FORM_ID} error={e.bulkFile} carried={carriedOf(v)} />
        <BulkLive live={live} slot={slot} />
      </div>
      {side(live)}
      <Form
        method="post"
        className="card bulk-formcard"
        encType="multipart/form-data"
        id={BULK_FORM_ID}
        ref={formRef}
        // The server's messages, under the fields and in the summary, never the browser's bubbles; only a file
        // the browser already refused (its message under the file field) keeps the form from being sent.
        noValidate
        onSubmit={(event) => {
          const file = refusedFile(event.currentTarget);
          if (!file) return;
          event.preventDefault();
          file.focus();
        }}
        onInput={live.formChanged}
        onChange={live.formChanged}
      >
        <SimMarkFields
          fields={fields}
          values={{ invoiceLineMark: v?.invoiceLineMark, invoiceLineNote: v?.invoiceLineNote }}
          errors={e}
          hint={tBulkAdd.marksHint}
        />
        <TagsField value={v?.tags} error={e.tags} hint={tTags.bulkActivationHint(TAG_MAX)} />
        <PlanSelector plans={plans} initial={selection} errors={e} />
        <button className="btn btn-primary" type="submit" name="intent" value="preview" disabled={busy}>
          {tBulkAdd.preview}
        </button>
      </Form>
    </>
  );
}
