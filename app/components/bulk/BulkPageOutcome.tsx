// /add/bulk's own preview and result (app/routes/add_.bulk.tsx), the answers of its plain forms: the preview's
// "Aktivera N SIM-kort" posts the same list and choices again from hidden fields; the result offers the download.
import { Form, useNavigation } from '@remix-run/react';
import { fileRowsOf, carriedOf, type Shown, type Values } from '#app/bulk/page-values.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { tBulkScan } from '#domain/texts/bulk-scan.ts';
import { BulkFileHidden, BulkFileResultDownload, BulkFileRowMarks } from './BulkFileField.tsx';
import { BULK_FORM_ID } from './BulkForm.tsx';
import { BulkCounts, BulkRows } from './BulkOutcome.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';

/** The same list and choices again, for the next step. */
function HiddenValues({ values }: { values: Values }) {
  return (
    <>
      <input type="hidden" name="iccids" value={values.iccids} />
      <input type="hidden" name="dataLimit" value={values.dataLimit} />
      {values.callAndSms ? <input type="hidden" name="callAndSms" value="on" /> : null}
      {values.roaming ? <input type="hidden" name="roaming" value="on" /> : null}
      <input type="hidden" name="invoiceLineMark" value={values.invoiceLineMark} />
      <input type="hidden" name="invoiceLineNote" value={values.invoiceLineNote} />
      <input type="hidden" name="tags" value={values.tags} />
      <BulkFileHidden carried={carriedOf(values)} />
    </>
  );
}

export function BulkPageOutcome({
  step,
  values,
  answer,
  liveActivate,
}: {
  step: 'preview' | 'result';
  values: Values;
  answer: Shown;
  /** With JS, for a pasted list: "Aktivera N SIM-kort" runs in the live view (chunks and their progress). */
  liveActivate?: () => void;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  // The preview's own activation on its way (a file's rows, with JS): the panel says so, not "Inget är aktiverat".
  const activating = busy && navigation.formData?.get('intent') === 'activate';
  const ready = answer.counts.ready;
  const title = step === 'preview' ? tBulkAdd.previewTitle : tBulkAdd.resultTitle;
  const fileRows = fileRowsOf(values);
  return (
    <section className="bulk-outcome" aria-labelledby="bulk-outcome-title">
      <h2 id="bulk-outcome-title">{title}</h2>
      <BulkCounts counts={answer.counts} />
      {step === 'preview' ? (
        <>
          {activating ? (
            <div className="bulklive-progress">
              <progress aria-label={tBulkScan.progressLabel} />
              <p role="status">{tBulkAdd.activating(ready)}</p>
            </div>
          ) : (
            <p className="muted">{tBulkAdd.previewNote}</p>
          )}
          {ready > 0 ? (
            <Form
              method="post"
              encType="multipart/form-data"
              onSubmit={(event) => {
                if (!liveActivate) return;
                event.preventDefault();
                liveActivate();
              }}
            >
              <HiddenValues values={values} />
              <button className="btn btn-primary" type="submit" name="intent" value="activate" disabled={busy}>
                {tBulkAdd.confirm(ready)}
              </button>
            </Form>
          ) : (
            <Notice>{tBulkAdd.nothingReady}</Notice>
          )}
        </>
      ) : (
        <div className="bulk-toolbar">
          <BulkFileResultDownload pairs={answer.pairs} />
          {/* The page's own form holds the same list and choices: the list is not carried a second time. */}
          <button className="btn" type="submit" form={BULK_FORM_ID} name="intent" value="preview" disabled={busy}>
            {tBulkAdd.again}
          </button>
        </div>
      )}
      <BulkRows
        rows={answer.rows}
        hidden={answer.hidden}
        download={step === 'result'}
        below={(i) => <BulkFileRowMarks row={fileRows?.[i]} />}
      />
    </section>
  );
}
