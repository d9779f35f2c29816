// Activate a SIM: ICCID, marks and the plan selector. On success the user goes back one page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Field } from '~/components/Field';
import { PlanSelector } from '~/components/PlanSelector';
import { t } from '~/texts';
import { requireUser } from '~/utils/auth.server';
import { FORM_ERROR } from '~/utils/forms';
import { attempt, formValues } from '~/utils/forms.server';
import { procedureHeaders } from '~/utils/http.server';
import { safeRedirectTarget } from '~/utils/paths';
import { cameFrom } from '~/utils/return-to.server';

export const meta: MetaFunction = () => [{ title: `${t.pages.add} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  const plans = await context.trpc.plans.list();
  return { plans, returnTo: cameFrom(request, '/sims', ['/add']) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireUser(request, context);
  const values = await formValues(request);
  const result = await attempt(() => context.trpc.sim.activate(values as never));
  if (!result.ok) return { errors: result.fields, values };
  return redirect(safeRedirectTarget(values.returnTo, '/sims'), { headers: procedureHeaders(context) });
}

export default function Activate() {
  const { plans, returnTo } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const v = data?.values ?? {};
  const e: Record<string, string> = data?.errors ?? {};
  const selection = { dataLimit: v.dataLimit ? Number(v.dataLimit) : null, callAndSms: v.callAndSms === 'true', roaming: v.roaming === 'true' };
  return (
    <>
      <h1>{t.pages.add}</h1>
      {data?.errors ? <p className="notice error" role="alert">{data.errors[FORM_ERROR] ?? t.sims.formError}</p> : null}
      <Form method="post" className="card" key={data ? JSON.stringify(v) : 'new'}>
        <input type="hidden" name="returnTo" value={v.returnTo ?? returnTo} />
        <Field id="iccid" label={t.sims.iccid} hint={t.sims.iccidHint} error={e.iccid}>
          {(aria) => (
            <input {...aria} name="iccid" type="text" inputMode="numeric" autoComplete="off" required maxLength={30}
              pattern="[0-9 ]{20,29}" defaultValue={v.iccid} autoFocus={!!e.iccid} />
          )}
        </Field>
        <Field id="invoiceLineMark" label={t.sims.mark} hint={t.sims.marksHint} error={e.invoiceLineMark}>
          {(aria) => <textarea {...aria} name="invoiceLineMark" rows={2} maxLength={200} defaultValue={v.invoiceLineMark} />}
        </Field>
        <Field id="invoiceLineNote" label={t.sims.note} hint={t.sims.marksHint} error={e.invoiceLineNote}>
          {(aria) => <textarea {...aria} name="invoiceLineNote" rows={2} maxLength={200} defaultValue={v.invoiceLineNote} />}
        </Field>
        <PlanSelector plans={plans} initial={selection} errors={e} />
        <button className="btn btn-primary" type="submit" disabled={busy}>{t.sims.activate}</button>
      </Form>
    </>
  );
}
