// Long: the SIM's facts, usage, form and history are one page; each history line is historyLines'.
// One SIM: its facts and usage (app/components/usage/SimUsage.tsx, one procedure call), and its edit or deactivate.
// ICCID read-only; a SIM on a legacy plan (or for a viewer) is shown read-only, as a view.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
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
import { useRef } from 'react';
import { SimMarkFields } from '#app/components/SimMarkFields.tsx';
import { PlanSelector, planFieldIds } from '#app/components/PlanSelector.tsx';
import { ErrorSummary, type SummaryFields } from '#app/components/ui/ErrorSummary.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tForms } from '#domain/texts/forms.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { canWrite } from '#domain/companies/kinds.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { formFlag, keepTypedOnFailure, submissionFailed } from '#app/utils/forms.ts';
import { attempt, formText, idParam, pageError } from '#app/utils/forms.server.ts';
import { procedureHeaders } from '#app/utils/http.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { editInput } from '#domain/sims/schemas.ts';
import { tSupport } from '#domain/texts/support.ts';
import { SupportContact } from '#app/components/ui/SupportContact.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { SessionsTable, SimFactsCard, UsageCard } from '#app/components/usage/SimUsage.tsx';
import usageStyles from '#app/styles/usage.css?url';
import { CHART_DAYS } from '#domain/usage/sim-schemas.ts';
import { useLiveUsage } from '#app/utils/live-usage.ts';
import { SimTags, TAG_ADD, TAG_REMOVE } from '#app/components/tags/SimTags.tsx';
import { TAG_MAX, TAGS_PER_SIM } from '#domain/sims/tags.ts';
import { tTags } from '#domain/texts/tags.ts';
import { tPause } from '#domain/texts/pause.ts';
import { PausedBadge } from '#app/components/sims/PausedBadge.tsx';
import { PAUSE, RESUME, SimPause } from '#app/components/sims/SimPause.tsx';
import { listFrom, withList } from '#app/sims/list-return.ts';

/**
 * The history's "who" (a user's name or "API-nyckel <name>") is shown whole up to this many characters; a longer
 * one is cut with the whole text in its title. It wraps in its cell, so a phone never scrolls sideways.
 */
const ACTOR_MAX = 60;

export const ErrorBoundary = routeErrorBoundary(t.pages.sim);

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: usageStyles }];

/** The chart's days from ?days= (30 or 90; anything else: 30). */
const chartDays = (url: URL) =>
  url.searchParams.get('days') === String(CHART_DAYS[1]) ? CHART_DAYS[1] : CHART_DAYS[0];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && readOnlySim(data) ? tForms.simView : t.pages.sim} – ${t.appName}` },
];

/** A SIM the user cannot change here: a legacy plan, or a viewer's. Its page is a view, not an edit form. */
const readOnlySim = (data: { sim: { ratePlan: { isLegacy: boolean } }; writable: boolean }) =>
  data.sim.ratePlan.isLegacy || !data.writable;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const id = idParam(params.id);
  try {
    // The history a page at a time, newest first (?before= the last event of the page before; an odd one: the newest).
    const url = new URL(request.url);
    const rawBefore = url.searchParams.get('before') ?? '';
    const before = /^[1-9]\d{0,9}$/.test(rawBefore) ? Number(rawBefore) : undefined;
    const [{ sim, history }, plans, usage, { tags: companyTags }] = await Promise.all([
      context.trpc.sim.detail({ id, before }),
      context.trpc.plans.list(),
      context.trpc.simUsage.overview({ id }),
      context.trpc.tags.list(),
    ]);
    return {
      sim,
      plans,
      history,
      usage,
      companyTags,
      days: chartDays(url),
      before: before ?? null,
      now: new Date().toISOString(),
      older: before !== undefined,
      fields: constraints(editInput),
      writable: canWrite(session),
      support: context.services.config.supportEmail ?? null,
      // The list the page was opened from (its search and page), for the way back (app/sims/list-return.ts).
      list: listFrom(url.searchParams),
    };
  } catch (e) {
    pageError(e);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireUser(request, context);
  const id = idParam(params.id);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  // Done, the page again, still remembering the list it was opened from.
  const here = withList(`/sims/${id}`, listFrom(new URL(request.url).searchParams));
  if (intent === TAG_ADD || intent === TAG_REMOVE) return tagAction(context, here, id, intent, formText(form, 'tag'));
  if (intent === PAUSE || intent === RESUME) return pauseAction(context, here, id, intent);
  // What was typed, to fill the form again; an unticked box is not posted at all, which is false here
  // (the procedure needs every field).
  const values = {
    dataLimit: formText(form, 'dataLimit'),
    callAndSms: formFlag(form, 'callAndSms'),
    roaming: formFlag(form, 'roaming'),
    invoiceLineMark: formText(form, 'invoiceLineMark'),
    invoiceLineNote: formText(form, 'invoiceLineNote'),
  };
  // An empty choice is 0, which the schema refuses with its own message.
  const result = await attempt(() => context.trpc.sim.edit({ ...values, id, dataLimit: Number(values.dataLimit) }));
  if (!result.ok)
    return { errors: result.fields, values: withinLimits(values, constraints(editInput)), unchanged: false };
  // Nothing to save: say so on this page (a repeated post changes nothing either).
  if (!result.value.changed) return { errors: undefined, values, unchanged: true };
  await context.ctx.showToasts({ flash: true });
  return redirect(here, { headers: procedureHeaders(context) });
}

/**
 * A tag added to or removed from this SIM (sim.tags on its id): done, the page again (the toast says it); refused,
 * the message next to the field with what was typed. A SIM that has as many tags as it may: said the same way.
 */
async function tagAction(
  context: ActionFunctionArgs['context'],
  here: string,
  id: number,
  intent: string,
  tag: string,
) {
  const add = intent === TAG_ADD;
  const result = await attempt(() =>
    context.trpc.sim.tags(add ? { ids: [id], add: [tag] } : { ids: [id], remove: [tag] }),
  );
  const value = tag.slice(0, TAG_MAX * 2);
  if (!result.ok) {
    const error = result.fields.add ?? result.fields.remove ?? Object.values(result.fields)[0] ?? t.error.notSent;
    return { tagError: error, tagValue: value };
  }
  if (result.value.full > 0) return { tagError: tTags.simFull(TAGS_PER_SIM), tagValue: value };
  await context.ctx.showToasts({ flash: true });
  return redirect(here, { headers: procedureHeaders(context) });
}

/**
 * The SIM paused or resumed (sim.pause / sim.resume, issue 40): done, the page again (the toast says it); nothing to
 * do (already paused, or not paused: another tab, a rule), said on this page, which shows the state as it is.
 */
async function pauseAction(context: ActionFunctionArgs['context'], here: string, id: number, intent: string) {
  const result = await attempt(() =>
    intent === PAUSE ? context.trpc.sim.pause({ id }) : context.trpc.sim.resume({ id }),
  );
  if (!result.ok) return { pauseNote: Object.values(result.fields)[0] ?? t.error.notSent };
  if (!result.value.changed) return { pauseNote: intent === PAUSE ? tPause.alreadyPaused : tPause.notPaused };
  await context.ctx.showToasts({ flash: true });
  return redirect(here, { headers: procedureHeaders(context) });
}

export const clientAction = ({ serverAction }: ClientActionFunctionArgs) =>
  keepTypedOnFailure(() => serverAction<typeof action>(), 'sim');

export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  submissionFailed(actionResult) ? false : defaultShouldRevalidate;

const planIds = planFieldIds();
const summaryFields: SummaryFields = {
  invoiceLineMark: t.sims.mark,
  invoiceLineNote: t.sims.note,
  dataLimit: { id: planIds.dataLimit },
  callAndSms: { id: planIds.callAndSms },
  roaming: { id: planIds.roaming },
};

type HistoryEntry = { kind: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
const CHANGES = ['ratePlan', 'invoiceLineMark', 'invoiceLineNote'] as const;

/** An event in words: each change from what to what (plans by their description), else what happened. */
function historyLines(h: HistoryEntry, planNames: Map<string, string>): string[] {
  // The values of a change are what the SIM's columns hold: text, a number or a flag.
  const shown = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  const plan = (code: unknown) => planNames.get(shown(code)) ?? shown(code);
  const text = (value: unknown) => (value ? t.sims.quoted(shown(value)) : t.sims.emptyValue);
  if (h.kind === 'activated' && h.after?.ratePlan) return [t.sims.activatedWith(plan(h.after.ratePlan))];
  // A rule's pause names the rule (its name then): "Pausad av regeln ”Över 90 %”".
  if (h.kind === 'paused' && typeof h.after?.rule === 'string') return [tPause.history.pausedByRule(h.after.rule)];
  const after = h.after ?? {};
  const lines = CHANGES.filter((key) => key in after).map((key) =>
    key === 'ratePlan'
      ? t.sims.changed.ratePlan(plan(h.before?.ratePlan), plan(after.ratePlan))
      : t.sims.changed[key](text(h.before?.[key]), text(after[key])),
  );
  return lines.length ? lines : [t.sims.kinds[h.kind] ?? h.kind];
}

export default function EditSim() {
  // New usage of the company shows without a reload (the event stream; at most every 10 s).
  useLiveUsage();
  const { sim, plans, history, older, fields, writable, support, usage, days, before, now, companyTags, list } =
    useLoaderData<typeof loader>();
  /** This page with the chart of `n` days and the history's page (the one shown unless said). */
  const hrefFor = (n: number, page: number | null = before) => {
    const q = new URLSearchParams();
    if (page !== null) q.set('before', String(page));
    if (n !== CHART_DAYS[0]) q.set('days', String(n));
    if (list) q.set('list', list);
    return `/sims/${sim.id}${q.size ? `?${q}` : ''}`;
  };
  const planNames = new Map([...plans, sim.ratePlan].map((p) => [p.code, p.description]));
  const answer = useActionData<typeof clientAction>();
  const failed = answer && 'failed' in answer;
  const data = answer && 'values' in answer ? answer : undefined;
  const tagAnswer = answer && 'tagError' in answer ? answer : undefined;
  const pauseNote = answer && 'pauseNote' in answer ? answer.pauseNote : undefined;
  const busy = useNavigation().state === 'submitting';
  const dialog = useRef<HTMLDialogElement>(null);
  // The form is made anew for the values the server sent back or the SIM as saved; a failed post keeps
  // the one on screen.
  const formKey = useRef('');
  const v = data?.values;
  const e: Record<string, string> = data?.errors ?? {};
  const legacy = sim.ratePlan.isLegacy;
  // A viewer sees the SIM as a legacy one is shown: read-only, without save or deactivate.
  const readOnly = readOnlySim({ sim, writable });
  if (!failed) formKey.current = v ? JSON.stringify(v) : `${sim.id}${sim.ratePlan.code}${sim.invoiceLineMark}`;
  const selection = v
    ? { dataLimit: v.dataLimit ? Number(v.dataLimit) : null, callAndSms: v.callAndSms, roaming: v.roaming }
    : {
        dataLimit: sim.ratePlan.dataLimit,
        callAndSms: sim.ratePlan.call && sim.ratePlan.sms,
        roaming: sim.ratePlan.roaming,
      };
  return (
    <>
      {/* The state beside the title (issue 40): a paused SIM says so first, icon and word. */}
      <div className="sim-head">
        <h1>{readOnly ? tForms.simView : t.pages.sim}</h1>
        {sim.status === 'paused' ? <PausedBadge /> : null}
      </div>
      {legacy ? (
        <SupportContact notice="info" role="status" address={support} text={tSupport.legacy} fallback={t.sims.legacy} />
      ) : null}
      {writable ? null : <Notice role="status">{tCompany.viewerNote}</Notice>}
      <ErrorSummary errors={data?.errors} fields={summaryFields} />
      {data?.unchanged ? <Notice role="status">{t.sims.unchanged}</Notice> : null}
      {failed ? (
        <Notice kind="error" role="alert">
          {t.error.notSent}
        </Notice>
      ) : null}
      {pauseNote ? <Notice role="status">{pauseNote}</Notice> : null}
      <SimPause status={sim.status} pausedAt={sim.pausedAt} pausedBy={sim.pausedBy} writable={writable} busy={busy} />
      <SimFactsCard
        sim={{ status: sim.status, plan: sim.ratePlan.description, activatedAt: sim.activatedAt }}
        usage={usage}
      />
      <UsageCard usage={usage} days={days} hrefFor={hrefFor} now={now} />
      <Form method="post" className="card" key={formKey.current} noValidate>
        <div className="field">
          <span id="iccid-label" className="label">
            {t.sims.iccid}
          </span>
          <span aria-labelledby="iccid-label" className="readonly-value">
            {sim.iccid}
          </span>
        </div>
        <SimMarkFields
          fields={fields}
          values={{
            invoiceLineMark: v?.invoiceLineMark ?? sim.invoiceLineMark,
            invoiceLineNote: v?.invoiceLineNote ?? sim.invoiceLineNote,
          }}
          errors={e}
          hint={readOnly ? undefined : t.sims.marksHint}
          readOnly={readOnly}
        />
        {readOnly ? (
          <div className="field">
            <span className="label">{t.sims.plan}</span>
            <span>{sim.ratePlan.description}</span>
          </div>
        ) : (
          <PlanSelector plans={plans} initial={selection} errors={e} />
        )}
        {readOnly ? null : (
          <div className="actions actions-split">
            <button className="btn btn-primary" type="submit" disabled={busy}>
              {t.sims.save}
            </button>
            <Link
              className="btn btn-destructive btn-quiet"
              to={withList(`/sims/${sim.id}/deactivate`, list)}
              onClick={(ev) => {
                if (dialog.current?.showModal) {
                  ev.preventDefault();
                  dialog.current.showModal();
                }
              }}
            >
              {t.sims.deactivate}
            </Link>
          </div>
        )}
      </Form>
      <SimTags
        tags={sim.tags}
        companyTags={companyTags}
        writable={writable}
        error={tagAnswer?.tagError}
        value={tagAnswer?.tagValue}
        busy={busy}
      />
      {readOnly ? null : (
        <dialog ref={dialog} aria-labelledby="confirm-title" aria-describedby="confirm-text confirm-iccid">
          <h2 id="confirm-title">{t.sims.confirmTitle}</h2>
          <p id="confirm-text">{t.sims.confirmText}</p>
          {/* Which SIM, as the page without JavaScript says. */}
          <p id="confirm-iccid" className="readonly-value">
            <span className="visually-hidden">{tForms.confirmIccid} </span>
            {sim.iccid}
          </p>
          <Form method="post" action={withList(`/sims/${sim.id}/deactivate`, list)} className="actions">
            <button className="btn" type="button" autoFocus onClick={() => dialog.current?.close()}>
              {t.sims.cancel}
            </button>
            <button className="btn btn-destructive" type="submit">
              {t.sims.continue}
            </button>
          </Form>
        </dialog>
      )}
      <SessionsTable usage={usage} />
      <h2 id="history-title">{t.sims.history}</h2>
      {older ? <p className="muted">{t.sims.historyOlderIntro}</p> : null}
      <table className="history" aria-labelledby="history-title">
        <thead>
          <tr>
            <th scope="col">{t.sims.historyWhen}</th>
            <th scope="col">{t.sims.historyWhat}</th>
            <th scope="col">{t.sims.historyWho}</th>
          </tr>
        </thead>
        <tbody>
          {history.items.map((h) => (
            <tr key={h.id}>
              <td>{formatDateTime(h.at)}</td>
              <td>
                {historyLines(h, planNames).map((line, j) => (
                  <div key={j}>{line}</div>
                ))}
              </td>
              <td className="simhist-by">{h.by ? <Truncated text={h.by} max={ACTOR_MAX} /> : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {older || history.nextBefore ? (
        <nav className="pager" aria-label={t.sims.history}>
          {older ? <Link to={hrefFor(days, null)}>{t.sims.historyNewest}</Link> : <span />}
          {history.nextBefore ? <Link to={hrefFor(days, history.nextBefore)}>{t.sims.historyOlder}</Link> : <span />}
        </nav>
      ) : null}
    </>
  );
}
