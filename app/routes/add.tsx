// Activate a SIM: ICCID, marks, tags (comma-separated) and the plan selector. On success the user goes back one page.
// With JS a scan button beside the ICCID opens the camera scanner, whose code (quagga2 included) is
// fetched only on that press; its place is kept from the first paint (nothing moves when JS arrives); without JS
// the button is not there and the form works the same.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { Field } from '#app/components/Field.tsx';
import { ScannerPending, ScanToggle, useLazyScanner } from '#app/components/LazyScan.tsx';
import { SimMarkFields } from '#app/components/SimMarkFields.tsx';
import { TagsField } from '#app/components/tags/TagsField.tsx';
import { PlanSelector, planFieldIds } from '#app/components/PlanSelector.tsx';
import { ErrorSummary, type SummaryFields } from '#app/components/ui/ErrorSummary.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { t } from '#domain/texts/common.ts';
import { tScanButton } from '#domain/texts/scan-button.ts';
import { tBulkAdd } from '#domain/texts/bulk-add.ts';
import { requireWriter } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { formFlag, keepTypedOnFailure, submissionFailed } from '#app/utils/forms.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { safeRedirectTarget } from '#app/utils/paths.ts';
import { cameFrom } from '#app/utils/return-to.server.ts';
import { activateInput } from '#domain/sims/schemas.ts';
import { ICCID_INPUT_PATTERN } from '#domain/sims/iccid.ts';
import { splitTags } from '#domain/sims/tag-text.ts';
import { tTags } from '#domain/texts/tags.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

export const ErrorBoundary = routeErrorBoundary(t.pages.add);

export const meta: MetaFunction = () => [{ title: `${t.pages.add} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireWriter(request, context);
  const plans = await context.trpc.plans.list();
  return { plans, returnTo: cameFrom(request, '/sims', ['/add']), fields: constraints(activateInput) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireWriter(request, context);
  const form = await request.formData();
  const text = (name: string) => formText(form, name);
  // What was typed, to fill the form again after a refusal.
  const values = {
    returnTo: text('returnTo'),
    iccid: text('iccid'),
    dataLimit: text('dataLimit'),
    callAndSms: formFlag(form, 'callAndSms'),
    roaming: formFlag(form, 'roaming'),
    invoiceLineMark: text('invoiceLineMark'),
    invoiceLineNote: text('invoiceLineNote'),
    tags: text('tags'),
  };
  const result = await attempt(() =>
    context.trpc.sim.activate({
      iccid: values.iccid,
      // An empty choice is 0, which the schema refuses with its own message.
      dataLimit: Number(values.dataLimit),
      callAndSms: values.callAndSms,
      roaming: values.roaming,
      invoiceLineMark: values.invoiceLineMark,
      invoiceLineNote: values.invoiceLineNote,
      // "Göteborg, Kylbilar": the procedure checks each tag and names the field.
      tags: splitTags(values.tags),
    }),
  );
  if (!result.ok) return { errors: result.fields, values: withinLimits(values, constraints(activateInput)) };
  await context.ctx.showToasts({ flash: true });
  return redirect(safeRedirectTarget(values.returnTo, '/sims'), { headers: procedureHeaders(context) });
}

export const clientAction = ({ serverAction }: ClientActionFunctionArgs) =>
  keepTypedOnFailure(() => serverAction<typeof action>(), 'add');

export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  submissionFailed(actionResult) ? false : defaultShouldRevalidate;

export default function Activate() {
  const { plans, returnTo, fields } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof clientAction>();
  const failed = answer && 'failed' in answer;
  const data = answer && 'values' in answer ? answer : undefined;
  // The form is made anew for the values the server sent back; a failed post keeps the one on screen.
  const formKey = useRef('new');
  if (data) formKey.current = JSON.stringify(data.values);
  const busy = useNavigation().state === 'submitting';
  const v = data?.values;
  const e: Record<string, string> = data?.errors ?? {};
  const selection = {
    dataLimit: v?.dataLimit ? Number(v.dataLimit) : null,
    callAndSms: v?.callAndSms ?? false,
    roaming: v?.roaming ?? false,
  };
  const scan = useScanner();
  return (
    <>
      <h1>{t.pages.add}</h1>
      <p>
        <Link to="/add/bulk">{tBulkAdd.link}</Link>
      </p>
      {failed ? null : <ErrorSummary errors={data?.errors} fields={summaryFields} />}
      {failed ? (
        <Notice kind="error" role="alert">
          {t.error.notSent}
        </Notice>
      ) : null}
      <Form method="post" className="card" key={formKey.current} noValidate>
        <input type="hidden" name="returnTo" value={v?.returnTo || returnTo} />
        <Field id="iccid" label={t.sims.iccid} hint={t.sims.iccidHint} error={e.iccid}>
          {(aria) => (
            <div className="iccid-row">
              <input
                {...aria}
                ref={scan.iccidRef}
                name="iccid"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                required
                {...fields.iccid}
                pattern={ICCID_INPUT_PATTERN}
                title={t.sims.iccidTitle}
                defaultValue={v?.iccid}
                // Ready to type or paste into (issue 41); after refused input the error summary has the focus.
                autoFocus={!data?.errors}
              />
              <ScanToggle hydrated={scan.hydrated} open={scan.open} onToggle={scan.toggle} />
            </div>
          )}
        </Field>
        {scan.filled ? (
          <Notice kind="success" className="scan-filled" role="status">
            {tScanButton.filled(scan.filled)}
          </Notice>
        ) : null}
        {scan.open ? (
          scan.Scanner ? (
            <scan.Scanner onAccept={scan.accept} />
          ) : (
            <ScannerPending failed={scan.loadFailed} />
          )
        ) : null}
        <SimMarkFields
          fields={fields}
          values={{ invoiceLineMark: v?.invoiceLineMark, invoiceLineNote: v?.invoiceLineNote }}
          errors={e}
          hint={t.sims.marksHint}
          markRef={scan.nextRef}
        />
        <TagsField value={v?.tags} error={e.tags} />
        <PlanSelector plans={plans} initial={selection} errors={e} />
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {t.sims.activate}
        </button>
      </Form>
    </>
  );
}

// The summary's order is the form's; a message that names no field (a mark's limit) gets the field's label.
const planIds = planFieldIds();
const summaryFields: SummaryFields = {
  iccid: {},
  invoiceLineMark: t.sims.mark,
  invoiceLineNote: t.sims.note,
  tags: tTags.heading,
  dataLimit: { id: planIds.dataLimit },
  callAndSms: { id: planIds.callAndSms },
  roaming: { id: planIds.roaming },
};

/** The scan button's state: shown after hydration only; the scanner module is imported on first open. */
function useScanner() {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const { Scanner, loadFailed, load } = useLazyScanner();
  const [filled, setFilled] = useState<string | null>(null);
  const iccidRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setHydrated(true), []);

  const toggle = () => {
    if (open) return setOpen(false);
    setOpen(true);
    setFilled(null);
    load();
  };

  const accept = (iccid: string) => {
    const input = iccidRef.current;
    if (input) {
      input.value = iccid;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    setFilled(iccid);
    setOpen(false);
    // After the scanner is gone, the user goes on with the next field.
    requestAnimationFrame(() => nextRef.current?.focus());
  };

  return { hydrated, open, Scanner, loadFailed, filled, iccidRef, nextRef, toggle, accept };
}
