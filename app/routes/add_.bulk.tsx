// Activate a pasted list of SIMs on one plan (issue 15). Plain forms in three steps, so it all works without
// JS: "Förhandsgranska" asks sim.bulkActivate with dryRun (nothing changes), the preview carries the same
// list and choices in hidden fields to "Aktivera N SIM-kort", and the result lists every row. A repeat of
// the list activates only what is left: the procedure decides that, this page only shows it.
// `add_` keeps the page out of /add's layout: /add has no <Outlet/>.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useRef, useState } from 'react';
import {
  BulkFileField,
  BulkFileHidden,
  BulkFileResultDownload,
  BulkFileRowMarks,
  resultPairs,
  type CarriedFile,
} from '#app/components/bulk/BulkFileField.tsx';
import { BULK_LIVE_SLOT, BulkLive } from '#app/components/bulk/BulkLive.tsx';
import { BulkCounts, BulkRows } from '#app/components/bulk/BulkOutcome.tsx';
import { shownRows } from '#app/bulk/run.ts';
import { Field } from '#app/components/Field.tsx';
import { SimMarkFields } from '#app/components/SimMarkFields.tsx';
import { PlanSelector } from '#app/components/PlanSelector.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { requireWriter } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { FORM_ERROR, formFlag } from '#app/utils/forms.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { BULK_MAX } from '#domain/sims/limits.ts';
import { bulkActivateInput, type BulkActivateOutput, bulkRow, type BulkRow } from '#domain/sims/schemas.ts';
import { parseBulkFile } from '#app/utils/bulk-files.server.ts';
import { z } from '#domain/zod.ts';

export const ErrorBoundary = routeErrorBoundary(t.pages.addBulk);

/** The page's form: the result's "again" button submits it (its list and choices are the ones just activated). */
const FORM_ID = 'bulk-form';

export const meta: MetaFunction = () => [{ title: `${t.pages.addBulk} – ${t.appName}` }];

// What a list field may echo back (the door caps /add/bulk's body): BULK_MAX + 1 ICCIDs with separators fit, so a
// list one too long is counted and refused in words rather than cut by the browser.
const LIST_MAX = (BULK_MAX + 1) * 40;

/** The ICCIDs of a pasted list: separated by line breaks, spaces, commas or semicolons. */
const splitList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

// A list from a file (issue 15) rides from step to step as JSON in a hidden field, checked again on each post
// as the procedure checks typed input; the file's name only labels it. Each row is packed as an array
// [iccid, mark, note] (null: the list's own; left off at the end): 10,000 rows with key names and their quotes,
// escaped in the page, made its forms megabytes larger.
const carriedRows = z.array(bulkRow).min(1).max(BULK_MAX);
const packedRows = z.array(z.array(z.string().max(10_000).nullable()).min(1).max(3)).max(BULK_MAX);
const FILE_NAME_MAX = 200;
type Packed = Array<Array<string | null>>;
const packRows = (rows: BulkRow[]): string =>
  JSON.stringify(
    rows.map((r): Array<string | null> => {
      const packed = [r.iccid, r.invoiceLineMark ?? null, r.invoiceLineNote ?? null];
      while (packed.length > 1 && packed.at(-1) === null) packed.pop();
      return packed;
    }),
  );
const unpackRows = (packed: Packed): BulkRow[] =>
  packed.map(([iccid, mark, note]) => ({
    iccid: iccid ?? '',
    ...(mark != null ? { invoiceLineMark: mark } : {}),
    ...(note != null ? { invoiceLineNote: note } : {}),
  }));
function rowsOf(json: string): BulkRow[] | null {
  if (!json) return null;
  try {
    const packed = packedRows.safeParse(JSON.parse(json));
    if (!packed.success) return null;
    const parsed = carriedRows.safeParse(unpackRows(packed.data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
/**
 * The rows of a file an answer carries, for the page: the action checked them (rowsOf) before it answered, so the
 * page reads them as they are, and the checks (zod) stay on the server.
 */
function fileRowsOf(values: Values | undefined): BulkRow[] | null {
  if (!values?.rows) return null;
  try {
    const rows: unknown = JSON.parse(values.rows);
    return Array.isArray(rows) ? unpackRows(rows as Packed) : null;
  } catch {
    return null;
  }
}
function carriedOf(values: Values | undefined): CarriedFile | null {
  const rows = fileRowsOf(values);
  return rows && values ? { rows: values.rows, fileName: values.fileName, count: rows.length } : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireWriter(request, context);
  const plans = await context.trpc.plans.list();
  // owner: whose offline scan queue this browser keeps (the user and the company they act for).
  return { plans, fields: constraints(bulkActivateInput), owner: `${session.userId}.${session.companyId}` };
}

type Values = {
  iccids: string;
  dataLimit: string;
  callAndSms: boolean;
  roaming: boolean;
  invoiceLineMark: string;
  invoiceLineNote: string;
  /** A list from a file: its rows as JSON ('' for a pasted list), and the file's name. */
  rows: string;
  fileName: string;
};
/**
 * What a preview or result page gets: the counts, the rows it lists (all of a short list; of a long one the rows
 * with a problem: shownRows), how many it does not list, and the result's every row for its download. A page of
 * 10,000 rows so carries its counts and problems, not 10,000 table rows.
 */
type Shown = {
  counts: BulkActivateOutput['counts'];
  rows: Array<BulkActivateOutput['results'][number] & { n: number }>;
  hidden: number;
  pairs: string;
};
type Answer =
  | { step: 'form'; values: Values; errors: Record<string, string> }
  | { step: 'preview' | 'result'; values: Values; answer: Shown };

function shown(answer: BulkActivateOutput, step: 'preview' | 'result'): Shown {
  const { rows, hidden } = shownRows(answer.results);
  return { counts: answer.counts, rows, hidden, pairs: step === 'result' ? resultPairs(answer.results) : '' };
}

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer> {
  requireWriter(request, context);
  const form = await request.formData();
  const text = (name: string) => formText(form, name);
  const values: Values = {
    iccids: text('iccids'),
    dataLimit: text('dataLimit'),
    callAndSms: formFlag(form, 'callAndSms'),
    roaming: formFlag(form, 'roaming'),
    invoiceLineMark: text('invoiceLineMark'),
    invoiceLineNote: text('invoiceLineNote'),
    rows: text('rows'),
    fileName: text('fileName').slice(0, FILE_NAME_MAX),
  };
  const kept = withinLimits(values, { ...constraints(bulkActivateInput), iccids: { maxLength: LIST_MAX } });
  // The list: a file chosen now, else a pasted list, else the rows a file gave at the step before.
  const file = form.get('file');
  let list: { iccids: string[] } | { rows: BulkRow[] };
  if (file instanceof File && (file.size > 0 || file.name !== '')) {
    const noFile = { ...kept, rows: '', fileName: '' };
    if (values.iccids.trim() !== '') return { step: 'form', values: noFile, errors: { bulkFile: tBulkFile.both } };
    const parsed = await parseBulkFile(new Uint8Array(await file.arrayBuffer()));
    if (!parsed.ok) return { step: 'form', values: noFile, errors: { bulkFile: parsed.errors.join(' ') } };
    kept.rows = packRows(parsed.rows);
    kept.fileName = file.name.slice(0, FILE_NAME_MAX);
    list = { rows: parsed.rows };
  } else if (values.iccids.trim() !== '' || values.rows === '') {
    kept.rows = '';
    kept.fileName = '';
    const iccids = splitList(values.iccids);
    // Counted here, before the procedure, so the message can say how many there were.
    if (iccids.length === 0) return { step: 'form', values: kept, errors: { iccids: tBulkAdd.empty } };
    if (iccids.length > BULK_MAX)
      return { step: 'form', values: kept, errors: { iccids: tBulkAdd.tooMany(iccids.length, BULK_MAX) } };
    list = { iccids };
  } else {
    const rows = rowsOf(values.rows);
    if (!rows)
      return { step: 'form', values: { ...kept, rows: '', fileName: '' }, errors: { bulkFile: tBulkFile.badRows } };
    list = { rows };
  }
  const dryRun = text('intent') !== 'activate';
  const result = await attempt(() =>
    context.trpc.sim.bulkActivate({
      ...list,
      // An empty choice is 0, which the schema refuses with its own message.
      dataLimit: Number(values.dataLimit),
      callAndSms: values.callAndSms,
      roaming: values.roaming,
      invoiceLineMark: values.invoiceLineMark,
      invoiceLineNote: values.invoiceLineNote,
      dryRun,
    }),
  );
  if (!result.ok) {
    // A row of a file the procedure refused (its message names the row) is shown at the file field.
    const { rows: rowsError, ...fields } = result.fields;
    return { step: 'form', values: kept, errors: rowsError ? { ...fields, bulkFile: rowsError } : fields };
  }
  if (dryRun) return { step: 'preview', values: kept, answer: shown(result.value, 'preview') };
  await context.ctx.showToasts({ flash: true });
  // The result is this answer itself: a reload asks to post again, and no GET ever changes anything.
  return { step: 'result', values: kept, answer: shown(result.value, 'result') };
}

export default function BulkActivate() {
  const { plans, fields, owner } = useLoaderData<typeof loader>();
  // With JS the live preview (BulkLive) replaces this page's older preview or result once the user goes on.
  const [liveActive, setLiveActive] = useState(false);
  const data = useActionData<typeof action>() as Answer | undefined;
  const busy = useNavigation().state === 'submitting';
  // The form is made anew for each answer, so it shows the values the server sent back.
  const formKey = useRef('new');
  if (data) formKey.current = JSON.stringify(data.values);
  const v = data?.values;
  const e: Record<string, string> = data?.step === 'form' ? data.errors : {};
  const selection = {
    dataLimit: v?.dataLimit ? Number(v.dataLimit) : null,
    callAndSms: v?.callAndSms ?? false,
    roaming: v?.roaming ?? false,
  };
  return (
    <>
      <h1>{t.pages.addBulk}</h1>
      {data && data.step !== 'form' && !liveActive ? (
        <Outcome step={data.step} values={data.values} answer={data.answer} />
      ) : null}
      {data?.step === 'form' && e[FORM_ERROR] ? (
        <p className="notice error" role="alert">
          {e[FORM_ERROR]}
        </p>
      ) : null}
      <Form method="post" className="card" key={formKey.current} encType="multipart/form-data" id={FORM_ID}>
        <Field id="iccids" label={tBulkAdd.list} hint={tBulkAdd.listHint(BULK_MAX)} error={e.iccids}>
          {(aria) => (
            <textarea
              {...aria}
              name="iccids"
              rows={8}
              maxLength={LIST_MAX}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              defaultValue={v?.iccids}
              autoFocus={!!e.iccids}
            />
          )}
        </Field>
        <BulkFileField error={e.bulkFile} carried={carriedOf(v)} />
        <BulkLive owner={owner} onActive={setLiveActive} />
        <SimMarkFields
          fields={fields}
          values={{ invoiceLineMark: v?.invoiceLineMark, invoiceLineNote: v?.invoiceLineNote }}
          errors={e}
          hint={tBulkAdd.marksHint}
        />
        <PlanSelector plans={plans} initial={selection} errors={e} />
        <button className="btn btn-primary" type="submit" name="intent" value="preview" disabled={busy}>
          {tBulkAdd.preview}
        </button>
      </Form>
      <div id={BULK_LIVE_SLOT} />
    </>
  );
}

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
      <BulkFileHidden carried={carriedOf(values)} />
    </>
  );
}

function Outcome({ step, values, answer }: { step: 'preview' | 'result'; values: Values; answer: Shown }) {
  const busy = useNavigation().state === 'submitting';
  const ready = answer.counts.ready;
  const title = step === 'preview' ? tBulkAdd.previewTitle : tBulkAdd.resultTitle;
  const fileRows = fileRowsOf(values);
  return (
    <section className="bulk-outcome" aria-labelledby="bulk-outcome-title">
      <h2 id="bulk-outcome-title">{title}</h2>
      {step === 'preview' ? <p className="muted">{tBulkAdd.previewNote}</p> : null}
      <BulkCounts counts={answer.counts} />
      {step === 'preview' ? (
        ready > 0 ? (
          <Form method="post" encType="multipart/form-data">
            <HiddenValues values={values} />
            <button className="btn btn-primary" type="submit" name="intent" value="activate" disabled={busy}>
              {tBulkAdd.confirm(ready)}
            </button>
          </Form>
        ) : (
          <p className="notice">{tBulkAdd.nothingReady}</p>
        )
      ) : (
        <>
          {/* The page's own form holds the same list and choices: the list is not carried a second time. */}
          <button className="btn" type="submit" form={FORM_ID} name="intent" value="preview" disabled={busy}>
            {tBulkAdd.again}
          </button>
          <BulkFileResultDownload pairs={answer.pairs} />
        </>
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
