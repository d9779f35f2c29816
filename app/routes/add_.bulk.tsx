// Activate a pasted list of SIMs on one plan (issue 15). Plain forms in three steps, so it all works without
// JS: "Förhandsgranska" asks sim.bulkActivate with dryRun (nothing changes), the preview carries the same
// list and choices in hidden fields to "Aktivera N SIM-kort", and the result lists every row. A repeat of
// the list activates only what is left: the procedure decides that, this page only shows it.
// `add_` keeps the page out of /add's layout: /add has no <Outlet/>.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useRef } from 'react';
import { Field } from '~/components/Field';
import { PlanSelector } from '~/components/PlanSelector';
import { routeErrorBoundary } from '~/components/RouteError';
import { t } from '~/texts';
import { requireUser } from '~/utils/auth.server';
import { constraints, withinLimits } from '~/utils/constraints';
import { FORM_ERROR, formFlag } from '~/utils/forms';
import { attempt, formText } from '~/utils/forms.server';
import {
  BULK_ACTIVATE_OUTCOMES,
  BULK_MAX,
  bulkActivateInput,
  type BulkActivateOutcome,
  type BulkActivateOutput,
} from '../../server/sims/schemas';

export const ErrorBoundary = routeErrorBoundary(t.pages.addBulk);

export const meta: MetaFunction = () => [{ title: `${t.pages.addBulk} – ${t.appName}` }];

// What a list field may echo back: the door caps a form at 100 kB anyway; 1,001 ICCIDs with separators fit.
const LIST_MAX = 40_000;

/** The ICCIDs of a pasted list: separated by line breaks, spaces, commas or semicolons. */
const splitList = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const plans = await context.trpc.plans.list();
  return { plans, fields: constraints(bulkActivateInput) };
}

type Values = {
  iccids: string;
  dataLimit: string;
  callAndSms: boolean;
  roaming: boolean;
  invoiceLineMark: string;
  invoiceLineNote: string;
};
type Answer =
  | { step: 'form'; values: Values; errors: Record<string, string> }
  | { step: 'preview' | 'result'; values: Values; answer: BulkActivateOutput };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer> {
  requireUser(request, context);
  const form = await request.formData();
  const text = (name: string) => formText(form, name);
  const values: Values = {
    iccids: text('iccids'),
    dataLimit: text('dataLimit'),
    callAndSms: formFlag(form, 'callAndSms'),
    roaming: formFlag(form, 'roaming'),
    invoiceLineMark: text('invoiceLineMark'),
    invoiceLineNote: text('invoiceLineNote'),
  };
  const kept = withinLimits(values, { ...constraints(bulkActivateInput), iccids: { maxLength: LIST_MAX } });
  const iccids = splitList(values.iccids);
  // Counted here, before the procedure, so the message can say how many there were.
  if (iccids.length === 0) return { step: 'form', values: kept, errors: { iccids: t.bulkAdd.empty } };
  if (iccids.length > BULK_MAX)
    return { step: 'form', values: kept, errors: { iccids: t.bulkAdd.tooMany(iccids.length, BULK_MAX) } };
  const dryRun = text('intent') !== 'activate';
  const result = await attempt(() =>
    context.trpc.sim.bulkActivate({
      iccids,
      // An empty choice is 0, which the schema refuses with its own message.
      dataLimit: Number(values.dataLimit),
      callAndSms: values.callAndSms,
      roaming: values.roaming,
      invoiceLineMark: values.invoiceLineMark,
      invoiceLineNote: values.invoiceLineNote,
      dryRun,
    }),
  );
  if (!result.ok) return { step: 'form', values: kept, errors: result.fields };
  if (dryRun) return { step: 'preview', values: kept, answer: result.value };
  await context.ctx.showToasts({ flash: true });
  // The result is this answer itself: a reload asks to post again, and no GET ever changes anything.
  return { step: 'result', values: kept, answer: result.value };
}

export default function BulkActivate() {
  const { plans, fields } = useLoaderData<typeof loader>();
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
      {data && data.step !== 'form' ? <Outcome step={data.step} values={data.values} answer={data.answer} /> : null}
      {data?.step === 'form' && e[FORM_ERROR] ? (
        <p className="notice error" role="alert">
          {e[FORM_ERROR]}
        </p>
      ) : null}
      <Form method="post" className="card" key={formKey.current}>
        <Field id="iccids" label={t.bulkAdd.list} hint={t.bulkAdd.listHint(BULK_MAX)} error={e.iccids}>
          {(aria) => (
            <textarea
              {...aria}
              name="iccids"
              rows={8}
              required
              maxLength={LIST_MAX}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              defaultValue={v?.iccids}
              autoFocus={!!e.iccids}
            />
          )}
        </Field>
        <Field id="invoiceLineMark" label={t.sims.mark} hint={t.bulkAdd.marksHint} error={e.invoiceLineMark}>
          {(aria) => (
            <textarea
              {...aria}
              name="invoiceLineMark"
              rows={2}
              {...fields.invoiceLineMark}
              defaultValue={v?.invoiceLineMark}
            />
          )}
        </Field>
        <Field id="invoiceLineNote" label={t.sims.note} hint={t.bulkAdd.marksHint} error={e.invoiceLineNote}>
          {(aria) => (
            <textarea
              {...aria}
              name="invoiceLineNote"
              rows={2}
              {...fields.invoiceLineNote}
              defaultValue={v?.invoiceLineNote}
            />
          )}
        </Field>
        <PlanSelector plans={plans} initial={selection} errors={e} />
        <button className="btn btn-primary" type="submit" name="intent" value="preview" disabled={busy}>
          {t.bulkAdd.preview}
        </button>
      </Form>
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
    </>
  );
}

function Outcome({ step, values, answer }: { step: 'preview' | 'result'; values: Values; answer: BulkActivateOutput }) {
  const busy = useNavigation().state === 'submitting';
  const ready = answer.counts.ready;
  const shown = BULK_ACTIVATE_OUTCOMES.filter((o) => answer.counts[o] > 0);
  const title = step === 'preview' ? t.bulkAdd.previewTitle : t.bulkAdd.resultTitle;
  return (
    <section className="bulk-outcome" aria-labelledby="bulk-outcome-title">
      <h2 id="bulk-outcome-title">{title}</h2>
      {step === 'preview' ? <p className="muted">{t.bulkAdd.previewNote}</p> : null}
      <dl className="bulk-counts" aria-label={t.bulkAdd.counts}>
        {shown.map((o) => (
          <div key={o} data-outcome={o}>
            <dt>{t.bulkAdd.outcomes[o]}</dt>
            <dd>{answer.counts[o]}</dd>
          </div>
        ))}
      </dl>
      {step === 'preview' ? (
        ready > 0 ? (
          <Form method="post">
            <HiddenValues values={values} />
            <button className="btn btn-primary" type="submit" name="intent" value="activate" disabled={busy}>
              {t.bulkAdd.confirm(ready)}
            </button>
          </Form>
        ) : (
          <p className="notice">{t.bulkAdd.nothingReady}</p>
        )
      ) : (
        <Form method="post">
          <HiddenValues values={values} />
          <button className="btn" type="submit" name="intent" value="preview" disabled={busy}>
            {t.bulkAdd.again}
          </button>
        </Form>
      )}
      <table className="bulk-rows">
        <thead>
          <tr>
            <th scope="col">{t.bulkAdd.row}</th>
            <th scope="col">{t.sims.iccid}</th>
            <th scope="col">{t.bulkAdd.outcome}</th>
          </tr>
        </thead>
        <tbody>
          {answer.results.map((r, i) => (
            <tr key={i} data-outcome={r.outcome}>
              <td>{i + 1}</td>
              <td className="iccid" title={r.iccid}>
                <span className="hide-mobile">{r.iccid}</span>
                <span className="only-mobile">{r.iccid.slice(-8)}</span>
              </td>
              <td>
                <OutcomeText outcome={r.outcome} message={r.message} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function OutcomeText({ outcome, message }: { outcome: BulkActivateOutcome; message?: string }) {
  return (
    <>
      <strong>{t.bulkAdd.outcomes[outcome]}</strong>
      {message ? <span className="bulk-message"> {message}</span> : null}
    </>
  );
}
