// Long: the list of rules with their plain forms, the form to make one, and the list of what the rules did.
// /company/rules ("Regler", issue 40): the company's rules (what each watches, when and what it does, on or off) with
// a link to change one, a button to turn it on or off and a link to delete it (a confirm page); a form to make one;
// and what the rules did, newest first, 50 a page. Owners only (and support acting as the company), as the webhooks:
// a rule can pause any SIM and mail any user. Plain forms with an intent: works without JS.
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { Badge } from '#app/components/ui/Badge.tsx';
import { RuleForm } from '#app/components/rules/RuleForm.tsx';
import {
  emptyRuleForm,
  ruleDraft,
  ruleFormOfDraft,
  ruleFormValues,
  ruleInputOf,
  type RuleFormValues,
} from '#app/components/rules/rule-form.ts';
import { t } from '#domain/texts/common.ts';
import { tRules } from '#domain/texts/rules.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { fieldConstraint } from '#app/utils/constraints.ts';
import { attempt, formText, idParam, pageError } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { firingValueText, ruleActionsText, ruleSummary, ruleTargetText } from '#domain/rules/schemas.ts';
import { ruleCreateInput } from '#domain/rules/schemas.ts';
import rulesStyles from '#app/styles/rules.css?url';
import { ruleFormChoices } from '#app/utils/rules.server.ts';

const r = tRules;

/** Wide: the list of what the rules did is a table of six columns (the form keeps its own measure, rules.css). */
export const handle = { width: 'wide' };

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: rulesStyles }];

export const ErrorBoundary = routeErrorBoundary(r.title);

export const meta: MetaFunction = () => [{ title: `${r.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const url = new URL(request.url);
  const before = url.searchParams.get('before') ?? undefined;
  const [rules, firings, choices] = await Promise.all([
    context.trpc.rules.list({}),
    context.trpc.rules.firings({ before: before?.slice(0, 200) }).catch(pageError),
    ruleFormChoices(context.trpc),
  ]);
  const notice = url.searchParams.get('notice');
  // A rule refused for want of a step-up comes back with what was typed (app/utils/step-up.ts).
  const draft = ruleFormOfDraft(url);
  const wanted = stepUpWanted(session);
  return {
    companyName: session.companyName,
    rules,
    firings,
    older: !!before,
    ...choices,
    draft,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    notice: notice === 'deleted' || notice === 'created' || notice === 'saved' ? notice : null,
    nameConstraint: fieldConstraint(ruleCreateInput.shape.name),
  };
}

type Answer =
  | { intent: 'create'; values: RuleFormValues; errors: Record<string, string> }
  | { intent: 'done'; id: number; notice: string }
  | { intent: 'failed'; id: number; error: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer | Response> {
  requireOwner(request, context);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent === 'create') {
    const values = { ...ruleFormValues(form), enabled: true };
    const read = ruleInputOf(values);
    const res = await attempt(() => context.trpc.rules.create(read.input));
    if (!res.ok && res.stepUp) return stepUpRedirect('/company/rules', ruleDraft(values));
    if (!res.ok) return { intent: 'create', values, errors: { ...res.fields, ...read.errors } };
    return redirect('/company/rules?notice=created');
  }
  if (intent === 'enable' || intent === 'disable') {
    const id = idParam(formText(form, 'id'));
    const rule = (await context.trpc.rules.list({})).find((x) => x.id === id);
    if (!rule) throw new Response('Not Found', { status: 404 });
    const res = await attempt(() =>
      context.trpc.rules.update({
        id,
        name: rule.name,
        target: rule.target,
        tag: rule.tag,
        planId: rule.planId,
        condition: rule.condition,
        threshold: rule.threshold,
        notifyEmail: rule.notifyEmail,
        notifyWebhook: rule.notifyWebhook,
        notifyToast: rule.notifyToast,
        pause: rule.pause,
        recipients: rule.recipients.map((u) => u.id),
        enabled: intent === 'enable',
      }),
    );
    if (!res.ok && res.stepUp) return stepUpRedirect('/company/rules');
    if (!res.ok) return { intent: 'failed', id, error: Object.values(res.fields)[0] ?? '' };
    return { intent: 'done', id, notice: r.saved };
  }
  throw new Response('Bad Request', { status: 400 });
}

export default function CompanyRules() {
  const { companyName, rules, firings, older, tags, plans, users, draft, stepUpNotice, notice, nameConstraint } =
    useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const create = data?.intent === 'create' ? data : null;
  const values = create?.values ?? draft ?? emptyRuleForm();
  return (
    <div className="admin company-admin rules">
      <h1>{r.title}</h1>
      <CompanyTabs />
      <p className="muted subtitle">{companyName}</p>
      <p className="rules-intro">{r.intro}</p>
      <p className="rules-timing">{r.timing}</p>
      {notice && !data ? (
        <Notice kind="success" role="status">
          {notice === 'deleted' ? r.deleted : notice === 'created' ? r.created : r.saved}
        </Notice>
      ) : null}
      {stepUpNotice && !data ? (
        <Notice kind="warning" role="alert" className="step-up-refused">
          {stepUpNotice}
        </Notice>
      ) : null}

      <section aria-labelledby="rules-list-title">
        <h2 id="rules-list-title">{r.listTitle}</h2>
        {rules.length === 0 ? <EmptyState>{r.none}</EmptyState> : null}
        <ul className="rules-list">
          {rules.map((rule) => (
            <li key={rule.id} className="card rules-rule" aria-labelledby={`rule-${rule.id}-name`}>
              <h3 id={`rule-${rule.id}-name`} className="rules-name">
                <Truncated text={rule.name} max={60} />{' '}
                <Badge tone={rule.enabled ? 'ok' : 'neutral'} className={rule.enabled ? 'rules-on' : 'rules-off'}>
                  {rule.enabled ? r.on : r.off}
                </Badge>
              </h3>
              <p className="rules-summary">{ruleSummary(rule)}</p>
              <dl className="rules-facts">
                <div>
                  <dt>{r.colSims}</dt>
                  <dd>{ruleTargetText(rule)}</dd>
                </div>
                <div>
                  <dt>{r.colActions}</dt>
                  <dd>{ruleActionsText(rule).join(', ')}</dd>
                </div>
              </dl>
              {data && 'id' in data && data.id === rule.id ? (
                data.intent === 'done' ? (
                  <Notice kind="success" role="status">
                    {data.notice}
                  </Notice>
                ) : (
                  <Notice kind="error" role="alert">
                    {data.error}
                  </Notice>
                )
              ) : null}
              <div className="rules-actions">
                <Link className="btn" to={`/company/rules/${rule.id}`} aria-label={r.editLabel(rule.name)}>
                  {r.edit}
                </Link>
                <Form method="post">
                  <input type="hidden" name="id" value={rule.id} />
                  <button
                    className="btn"
                    type="submit"
                    name="intent"
                    value={rule.enabled ? 'disable' : 'enable'}
                    disabled={busy}
                    aria-label={rule.enabled ? r.disableLabel(rule.name) : r.enableLabel(rule.name)}
                  >
                    {rule.enabled ? r.disable : r.enable}
                  </button>
                </Form>
                <Link
                  className="btn btn-destructive"
                  to={`/company/rules/${rule.id}/delete`}
                  aria-label={r.deleteLabel(rule.name)}
                >
                  {r.delete}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="rules-add-title">
        <h2 id="rules-add-title">{r.createTitle}</h2>
        <RuleForm
          key={create ? 'refused' : 'new'}
          values={values}
          errors={create?.errors ?? null}
          tags={tags}
          plans={plans}
          users={users}
          nameConstraint={nameConstraint}
          busy={busy}
          submitLabel={r.create}
          intent="create"
        />
      </section>

      <section aria-labelledby="rules-firings-title">
        <h2 id="rules-firings-title">{r.firingsTitle}</h2>
        {firings.firings.length === 0 ? (
          <EmptyState>{r.firingsNone}</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="rules-firings">
              <caption className="visually-hidden">{r.firingsTitle}</caption>
              <thead>
                <tr>
                  <th scope="col">{r.colSim}</th>
                  <th scope="col">{r.colRule}</th>
                  <th scope="col">{r.colValue}</th>
                  <th scope="col">{r.colFiredAt}</th>
                  <th scope="col">{r.colSent}</th>
                  <th scope="col">{r.colPaused}</th>
                </tr>
              </thead>
              <tbody>
                {firings.firings.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <Link to={`/sims/${f.simId}`} className="rules-iccid">
                        {f.iccid}
                      </Link>
                    </td>
                    <td>
                      <Truncated text={f.ruleName} max={30} />
                    </td>
                    <td className="num">{firingValueText(f.period, f.value)}</td>
                    <td className="rules-when">{formatDateTime(f.firedAt)}</td>
                    <td>
                      {[f.webhook ? r.sentWebhook : '', f.emailedAt ? r.sentEmail : ''].filter(Boolean).join(', ') ||
                        r.sentNothing}
                    </td>
                    <td>{f.paused ? r.yes : r.no}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {firings.next || older ? (
          <nav className="pager" aria-label={r.firingsTitle}>
            {older ? <Link to="/company/rules">{r.firingsNewest}</Link> : null}
            {firings.next ? (
              <Link to={`/company/rules?before=${encodeURIComponent(firings.next)}`}>{r.firingsOlder}</Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
