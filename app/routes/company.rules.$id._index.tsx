// /company/rules/{id}: change a rule (issue 40), the same form as a new one's with "Regeln är på"; back to the list
// when saved. Owners only (and support acting as the company). Works without JS; a change refused for want of a
// step-up comes back with what was typed (app/utils/step-up.ts).
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { RuleForm } from '#app/components/rules/RuleForm.tsx';
import {
  ruleDraft,
  ruleFormOf,
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
import { attempt, idParam } from '#app/utils/forms.server.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { ruleUpdateInput } from '#domain/rules/schemas.ts';
import rulesStyles from '#app/styles/rules.css?url';
import { ruleFormChoices } from '#app/utils/rules.server.ts';

const r = tRules;

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: rulesStyles }];

export const ErrorBoundary = routeErrorBoundary(r.editTitle);

export const meta: MetaFunction = () => [{ title: `${r.editTitle} – ${t.appName}` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const id = idParam(params.id);
  const [rules, choices] = await Promise.all([context.trpc.rules.list({}), ruleFormChoices(context.trpc)]);
  const rule = rules.find((x) => x.id === id);
  if (!rule) throw new Response('Not Found', { status: 404 });
  const draft = ruleFormOfDraft(new URL(request.url));
  const wanted = stepUpWanted(session);
  // A legacy plan is not among the ones to choose, but the rule's own stays choosable.
  const plans =
    rule.planId !== null && !choices.plans.some((p) => p.id === rule.planId)
      ? [...choices.plans, { id: rule.planId, code: rule.planCode ?? '', description: '' }]
      : choices.plans;
  // Its recipients stay listed even past the first 50 users.
  const users = [...choices.users, ...rule.recipients.filter((u) => !choices.users.some((c) => c.id === u.id))];
  return {
    id,
    name: rule.name,
    values: draft ?? ruleFormOf(rule),
    ...choices,
    plans,
    users,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    nameConstraint: fieldConstraint(ruleUpdateInput.shape.name),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireOwner(request, context);
  const id = idParam(params.id);
  const values: RuleFormValues = ruleFormValues(await request.formData());
  const read = ruleInputOf(values);
  const res = await attempt(() => context.trpc.rules.update({ id, ...read.input }));
  if (!res.ok && res.stepUp) return stepUpRedirect(`/company/rules/${id}`, ruleDraft(values));
  if (!res.ok) return { values, errors: { ...res.fields, ...read.errors } };
  return redirect('/company/rules?notice=saved');
}

export default function CompanyRuleEdit() {
  const { name, values, tags, plans, users, stepUpNotice, nameConstraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="admin company-admin rules">
      <h1>{r.editTitle}</h1>
      <p className="muted subtitle">{name}</p>
      <p className="rules-timing">{r.timing}</p>
      {stepUpNotice && !data ? (
        <Notice kind="warning" role="alert" className="step-up-refused">
          {stepUpNotice}
        </Notice>
      ) : null}
      <section className="card" aria-label={r.editTitle}>
        <RuleForm
          key={data ? 'refused' : 'stored'}
          values={data?.values ?? values}
          errors={data?.errors ?? null}
          tags={tags}
          plans={plans}
          users={users}
          nameConstraint={nameConstraint}
          busy={busy}
          submitLabel={r.save}
          intent="update"
          withEnabled
        />
      </section>
    </div>
  );
}
