// The file choice of /add/bulk: "or upload a file", next to the pasted list, in the same
// multipart form, so it works without JS. Says the limits before the upload and links the templates. A list
// that came from a file rides along to the next step in one hidden field (the server checks it again, as
// typed input). With JS a file over the size limit, or a CSV with clearly too many lines, is refused here
// before it is sent, its message under the field (no browser bubble); the server decides either way.
import { useState } from 'react';
import { Field } from '#app/components/Field.tsx';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { BULK_FILE_ACCEPT, BULK_FILE_MAX_BYTES, BULK_MAX } from '#domain/sims/limits.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const KB = Math.round(BULK_FILE_MAX_BYTES / 1024);

/** A list of rows from a file, carried from one step to the next. */
export type CarriedFile = { rows: string; fileName: string; count: number };

/** The browser's own check of a chosen file: the problem to show ('' when none), also kept as the input's
 * custom validity, which the page's form reads before it sends (refusedFile). */
async function checkBeforeUpload(input: HTMLInputElement): Promise<string> {
  input.setCustomValidity('');
  const file = input.files?.[0];
  if (!file) return '';
  let problem = '';
  if (file.size > BULK_FILE_MAX_BYTES) problem = tBulkFile.fileTooLarge(KB);
  else if (/\.csv$/i.test(file.name)) {
    const lines = (await file.text()).split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').length;
    // A header row or not: more than BULK_MAX + 1 lines is too many either way.
    if (lines > BULK_MAX + 1) problem = tBulkFile.tooManyLines(lines, BULK_MAX);
  }
  input.setCustomValidity(problem);
  return problem;
}

/** The form's file input when the browser's check refused its file (then the form is not sent): else null. */
export function refusedFile(form: HTMLFormElement): HTMLInputElement | null {
  const input = form.elements.namedItem('file');
  return input instanceof HTMLInputElement && input.validity.customError ? input : null;
}

/** `form`: the id of the form the file and a carried list belong to (the field sits outside it, by the list). */
export function BulkFileField({
  form,
  error,
  carried,
}: {
  form?: string;
  error?: string;
  carried?: CarriedFile | null;
}) {
  const f = tBulkFile;
  // With JS, a file refused before it is sent: its message under the field, as the server's would be.
  const [problem, setProblem] = useState('');
  return (
    <div className="bulkfile">
      <Field id="bulkFile" label={f.label} hint={f.hint(BULK_MAX, KB)} error={problem || error}>
        {(aria) => (
          <input
            {...aria}
            type="file"
            form={form}
            name="file"
            accept={BULK_FILE_ACCEPT}
            onChange={(e) => void checkBeforeUpload(e.currentTarget).then(setProblem)}
            autoFocus={!!error}
          />
        )}
      </Field>
      <p className="bulkfile-templates">
        {f.templates}{' '}
        <a href="/add/bulk/template.csv" download>
          {f.templateCsv}
        </a>{' '}
        <a href="/add/bulk/template.xlsx" download>
          {f.templateXlsx}
        </a>
      </p>
      <details className="bulkfile-columns">
        <summary>{f.columnsTitle}</summary>
        <p className="hint">{f.columns}</p>
      </details>
      {carried ? (
        <Notice className="bulkfile-carried" data-testid="bulkfile-carried">
          {carried.fileName ? f.carried(carried.fileName, carried.count) : f.carriedNoName(carried.count)}
          <input type="hidden" form={form} name="rows" value={carried.rows} />
          <input type="hidden" form={form} name="fileName" value={carried.fileName} />
        </Notice>
      ) : null}
    </div>
  );
}

/** The list from a file in the preview's and the result's forms, for the next step. */
export function BulkFileHidden({ carried }: { carried?: CarriedFile | null }) {
  if (!carried) return null;
  return (
    <>
      <input type="hidden" name="rows" value={carried.rows} />
      <input type="hidden" name="fileName" value={carried.fileName} />
    </>
  );
}

/** The result's [ICCID, outcome] pairs as "Ladda ner resultat" posts them (JSON): every row, also those not listed. */
export const resultPairs = (results: ReadonlyArray<{ iccid: string; outcome: string }>) =>
  JSON.stringify(results.map((r) => [r.iccid, r.outcome]));

/** "Ladda ner resultat" as CSV or XLSX: a plain form (a browser download, with or without JS) that posts the
 * result's [ICCID, outcome] pairs (resultPairs) to /add/bulk/result, which only formats them. */
export function BulkFileResultDownload({ pairs }: { pairs: string }) {
  const f = tBulkFile;
  return (
    <form
      method="post"
      action="/add/bulk/result"
      encType="multipart/form-data"
      className="bulkfile-download"
      role="group"
      aria-labelledby="bulkfile-download-label"
    >
      <input type="hidden" name="results" value={pairs} />
      <span id="bulkfile-download-label">{f.download}:</span>
      <button className="btn" type="submit" name="format" value="csv">
        {f.downloadCsv}
      </button>
      <button className="btn" type="submit" name="format" value="xlsx">
        {f.downloadXlsx}
      </button>
    </form>
  );
}

/** A row's own mark and comment from a file, under its outcome in the preview and the result. */
export function BulkFileRowMarks({ row }: { row?: { invoiceLineMark?: string; invoiceLineNote?: string } }) {
  if (!row || (row.invoiceLineMark === undefined && row.invoiceLineNote === undefined)) return null;
  return (
    <span className="bulkfile-rowmarks">
      {row.invoiceLineMark !== undefined ? (
        <span>
          {tBulkFile.rowMark}: {row.invoiceLineMark}
        </span>
      ) : null}
      {row.invoiceLineNote !== undefined ? (
        <span>
          {tBulkFile.rowNote}: {row.invoiceLineNote}
        </span>
      ) : null}
    </span>
  );
}
