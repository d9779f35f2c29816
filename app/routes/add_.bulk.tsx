// Activate a pasted list of SIMs on one plan. Plain forms in three steps, so it all works without
// JS: "Förhandsgranska" asks sim.bulkActivate with dryRun (nothing changes), the preview carries the same
// list and choices in hidden fields to "Aktivera N SIM-kort", and the result lists every row. A repeat of
// the list activates only what is left: the procedure decides that, this page only shows it.
// `add_` keeps the page out of /add's layout: /add has no <Outlet/>.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { resultPairs } from '#app/components/bulk/BulkFileField.tsx';
import { BulkForm } from '#app/components/bulk/BulkForm.tsx';
import { BulkPageOutcome } from '#app/components/bulk/BulkPageOutcome.tsx';
import { shownRows, startRows } from '#app/bulk/run.ts';
import { planOfValues } from '#app/bulk/live-state.ts';
import { splitList } from '#app/bulk/queue.ts';
import { FILE_NAME_MAX, LIST_MAX, packRows, unpackRows, type Shown, type Values } from '#app/bulk/page-values.ts';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { planFieldIds } from '#app/components/PlanSelector.tsx';
import { ErrorSummary, type SummaryFields } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tBulkFile } from '#domain/texts/bulk-file.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { tTags } from '#domain/texts/tags.ts';
import { splitTags } from '#domain/sims/tag-text.ts';
import { requireWriter } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { formFlag } from '#app/utils/forms.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { BULK_MAX } from '#domain/sims/limits.ts';
import { bulkActivateInput, type BulkActivateOutput, bulkRow, type BulkRow } from '#domain/sims/schemas.ts';
import { parseBulkFile } from '#app/utils/bulk-files.server.ts';
import { z } from '#domain/zod.ts';

// The refused fields in the order they stand, for the summary at the top (each message also under its field).
const planIds = planFieldIds();
const summaryFields: SummaryFields = {
  iccids: tBulkAdd.list,
  bulkFile: {},
  invoiceLineMark: t.sims.mark,
  invoiceLineNote: t.sims.note,
  tags: tTags.heading,
  dataLimit: { id: planIds.dataLimit },
  callAndSms: { id: planIds.callAndSms },
  roaming: { id: planIds.roaming },
};

export const ErrorBoundary = routeErrorBoundary(t.pages.addBulk);

// Wide: on a wide screen the preview sits beside the list and the form (app/styles/bulk.css), not below them.
export const handle = { width: 'wide' };

export const meta: MetaFunction = () => [{ title: `${t.pages.addBulk} – ${t.appName}` }];

// The rows a file gave, carried as packed JSON (app/bulk/page-values.ts), checked again on each post.
const carriedRows = z.array(bulkRow).min(1).max(BULK_MAX);
const packedRows = z.array(z.array(z.string().max(10_000).nullable()).min(1).max(4)).max(BULK_MAX);
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

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireWriter(request, context);
  const plans = await context.trpc.plans.list();
  // owner: whose offline scan queue this browser keeps (the user and the company they act for).
  return { plans, fields: constraints(bulkActivateInput), owner: `${session.userId}.${session.companyId}` };
}

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
    tags: text('tags'),
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
      // The list's tags ("Göteborg, Kylbilar"), on every SIM; a file's rows may add their own.
      tags: splitTags(values.tags),
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
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const e: Record<string, string> = data?.step === 'form' ? data.errors : {};
  const outcome = data && data.step !== 'form' && !liveActive;
  return (
    <>
      <h1>{t.pages.addBulk}</h1>
      <ErrorSummary errors={data?.step === 'form' ? data.errors : null} fields={summaryFields} />
      <div className="bulk-page">
        {/* Made anew for each answer (its key), so the form shows the values the server sent back. */}
        <BulkForm
          key={data ? JSON.stringify(data.values) : 'new'}
          owner={owner}
          plans={plans}
          fields={fields}
          values={data?.values}
          errors={e}
          busy={busy}
          slot={slot}
          onActive={setLiveActive}
          side={(live) => (
            // Right under the list (beside the form on a wide screen): the preview or result, the live one's slot.
            <div className="bulk-side">
              {outcome ? (
                <BulkPageOutcome
                  step={data.step}
                  values={data.values}
                  answer={data.answer}
                  // With JS a pasted list is activated as the live view does it: in chunks, with "Aktiverar… x / y"
                  // and its one toast at the end. A file's rows (their own marks) are posted as without JS.
                  liveActivate={
                    live.hydrated && !data.values.rows
                      ? () => void live.activate(startRows(splitList(data.values.iccids)), planOfValues(data.values))
                      : undefined
                  }
                />
              ) : null}
              {(!data || data.step === 'form') && !liveActive ? (
                <p className="bulk-placeholder muted">{tBulkAdd.placeholder}</p>
              ) : null}
              <div id="bulk-live" ref={setSlot} />
            </div>
          )}
        />
      </div>
    </>
  );
}
