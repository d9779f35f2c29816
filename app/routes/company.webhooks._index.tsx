// Long: one list whose endpoints each carry four plain forms, told apart by their intent, and the
// step-up's draft (a refused change comes back with its values).
// /company/webhooks: the company's webhook endpoints with their last deliveries, a form to add one
// (the signing secret is shown once, on the answer to that POST), and per endpoint: send a test event, turn
// on or off, rotate the secret, delete (a confirm page). Plain forms with an intent: works without JS.
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { Truncated } from '#app/components/Truncated.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tWebhooks } from '#domain/texts/webhooks.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { constraints, withinLimits } from '#app/utils/constraints.ts';
import { attempt, formText, idParam } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { draftList, draftOf } from '#app/utils/step-up.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '#domain/webhooks/events.ts';
import { webhookCreateInput } from '#domain/webhooks/schemas.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';
import { Badge, type Tone } from '#app/components/ui/Badge.tsx';

/** A delivery's state as a badge, as every status in the portal is shown. */
const DELIVERY_TONE: Record<'pending' | 'delivered' | 'failed', Tone> = {
  pending: 'info',
  delivered: 'ok',
  failed: 'error',
};
import { SecretCopy } from '#app/components/SecretCopy.tsx';

const w = tWebhooks;

export const ErrorBoundary = routeErrorBoundary(w.title);

export const meta: MetaFunction = () => [{ title: `${w.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const endpoints = await context.trpc.webhooks.list({});
  const url = new URL(request.url);
  const notice = url.searchParams.get('notice');
  // A change refused for want of a step-up comes back with the new endpoint's values (app/utils/step-up.ts).
  const draft = draftOf(url, ['url'] as const);
  const wanted = stepUpWanted(session);
  return {
    draft: draft ? { url: draft.url, events: draftList(url, 'events') } : null,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    companyName: session.companyName,
    endpoints,
    notice: notice === 'deleted' ? notice : null,
    form: constraints(webhookCreateInput),
  };
}

type Answer =
  | { intent: 'create'; values: { url: string; events: string[] }; errors: Record<string, string> }
  | { intent: 'secret'; id: number; secret: string; created: boolean }
  | { intent: 'done'; id: number; notice: string }
  | { intent: 'failed'; id: number; error: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer | Response> {
  requireOwner(request, context);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  if (intent === 'create') {
    const values = {
      url: formText(form, 'url'),
      events: form.getAll('events').filter((v): v is string => typeof v === 'string'),
    };
    const r = await attempt(() =>
      context.trpc.webhooks.create({ url: values.url, events: values.events as WebhookEventType[] }),
    );
    if (!r.ok && r.stepUp) return stepUpRedirect('/company/webhooks', values);
    if (!r.ok)
      return {
        intent: 'create',
        values: { ...withinLimits({ url: values.url }, constraints(webhookCreateInput)), events: values.events },
        errors: r.fields,
      };
    return { intent: 'secret', id: r.value.id, secret: r.value.secret, created: true };
  }
  const id = idParam(formText(form, 'id'));
  // An endpoint's change refused for want of a step-up: the page says so at the top, with the way to give it.
  const refused = (r: { ok: boolean; stepUp?: boolean }) =>
    !r.ok && r.stepUp ? stepUpRedirect('/company/webhooks') : null;
  if (intent === 'rotate') {
    const r = await attempt(() => context.trpc.webhooks.rotate({ id }));
    const stepUp = refused(r);
    if (stepUp) return stepUp;
    if (!r.ok) return { intent: 'failed', id, error: Object.values(r.fields)[0] ?? '' };
    return { intent: 'secret', id, secret: r.value.secret, created: false };
  }
  if (intent === 'test') {
    const r = await attempt(() => context.trpc.webhooks.test({ id }));
    const stepUp = refused(r);
    if (stepUp) return stepUp;
    if (!r.ok) return { intent: 'failed', id, error: Object.values(r.fields)[0] ?? '' };
    return { intent: 'done', id, notice: w.testQueued };
  }
  if (intent === 'enable' || intent === 'disable') {
    const ep = (await context.trpc.webhooks.list({})).find((e) => e.id === id);
    if (!ep) throw new Response('Not Found', { status: 404 });
    const r = await attempt(() =>
      context.trpc.webhooks.update({
        id,
        url: ep.url,
        events: ep.events as WebhookEventType[],
        enabled: intent === 'enable',
      }),
    );
    const stepUp = refused(r);
    if (stepUp) return stepUp;
    if (!r.ok) return { intent: 'failed', id, error: Object.values(r.fields)[0] ?? '' };
    return { intent: 'done', id, notice: w.saved };
  }
  throw new Response('Bad Request', { status: 400 });
}

function Secret({ secret, created }: { secret: string; created: boolean }) {
  return (
    <Notice kind="success" as="div" className="webhooks-secret" role="status">
      <p>
        <strong>{created ? w.created : w.rotated}.</strong> {w.secretOnce}
      </p>
      {created ? null : <p>{w.rotatedOverlap}</p>}
      <label htmlFor="webhooks-secret-value">{w.secretTitle}</label>
      <SecretCopy id="webhooks-secret-value" value={secret} />
    </Notice>
  );
}

export default function CompanyWebhooks() {
  const { companyName, endpoints, notice, form, draft, stepUpNotice } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const create = data?.intent === 'create' ? data : null;
  const e: Record<string, string | undefined> = create?.errors ?? {};
  const typed = create?.values ?? draft;
  const checked = new Set(typed ? typed.events : []);
  return (
    <div className="admin company-admin webhooks">
      <h1>{w.title}</h1>
      <CompanyTabs />
      <p className="muted subtitle">{companyName}</p>
      <p>{w.intro}</p>
      <p>
        {/* A plain link: /api/docs is the server's own page, not a route of the app. */}
        <a href="/api/docs">{w.docsLink}</a>: {w.docsHint}
      </p>
      {notice && !data ? (
        <Notice kind="success" role="status">
          {w.deleted}
        </Notice>
      ) : null}
      {data?.intent === 'secret' && data.created ? <Secret secret={data.secret} created /> : null}
      {stepUpNotice && !data ? (
        <Notice kind="warning" role="alert" className="step-up-refused">
          {stepUpNotice}
        </Notice>
      ) : null}

      <section aria-labelledby="webhooks-list-title">
        <h2 id="webhooks-list-title">{w.listTitle}</h2>
        {endpoints.length === 0 ? <EmptyState>{w.none}</EmptyState> : null}
        {endpoints.map((ep) => (
          <article key={ep.id} className="card webhooks-endpoint" aria-labelledby={`webhook-${ep.id}-url`}>
            <h3 id={`webhook-${ep.id}-url`} className="webhooks-url">
              <Truncated text={ep.url} max={60} />
            </h3>
            <p className="webhooks-meta">
              <Badge tone={ep.enabled ? 'ok' : 'neutral'} className={ep.enabled ? 'webhooks-on' : 'webhooks-off'}>
                {ep.enabled ? w.enabled : w.disabled}
              </Badge>
              {' · '}
              {ep.events.map((type) => w.events[type] ?? type).join(', ')}
            </p>
            {ep.failing ? (
              <Notice kind="error" className="webhooks-failing" role="alert">
                {w.failing}
              </Notice>
            ) : null}
            {data && 'id' in data && data.id === ep.id ? (
              data.intent === 'secret' && !data.created ? (
                <Secret secret={data.secret} created={false} />
              ) : data.intent === 'done' ? (
                <Notice kind="success" role="status">
                  {data.notice}
                </Notice>
              ) : data.intent === 'failed' ? (
                <Notice kind="error" role="alert">
                  {data.error}
                </Notice>
              ) : null
            ) : null}
            <div className="webhooks-actions">
              <Form method="post">
                <input type="hidden" name="id" value={ep.id} />
                <button className="btn" type="submit" name="intent" value="test" disabled={busy || !ep.enabled}>
                  {w.sendTest}
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="id" value={ep.id} />
                <button
                  className="btn"
                  type="submit"
                  name="intent"
                  value={ep.enabled ? 'disable' : 'enable'}
                  disabled={busy}
                >
                  {ep.enabled ? w.disable : w.enable}
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="id" value={ep.id} />
                <button className="btn" type="submit" name="intent" value="rotate" disabled={busy}>
                  {w.rotate}
                </button>
              </Form>
              <Link className="btn btn-destructive" to={`/company/webhooks/${ep.id}/delete`}>
                {w.delete}
              </Link>
            </div>
            <h4 className="webhooks-deliveries-title">{w.lastDeliveries}</h4>
            {ep.lastDeliveries.length === 0 ? (
              <p className="muted">{w.noDeliveries}</p>
            ) : (
              <ul className="webhooks-deliveries">
                {ep.lastDeliveries.map((d) => (
                  <li key={d.id} className={`webhooks-delivery webhooks-${d.status}`}>
                    <span className="webhooks-type">{w.events[d.type] ?? d.type}</span>
                    <span>
                      <Badge tone={DELIVERY_TONE[d.status]}>{w.delivery[d.status]}</Badge>
                      {d.lastStatusCode !== null ? ` (${w.code} ${d.lastStatusCode})` : ''}
                      {d.lastStatusCode === null && d.lastError ? ` (${d.lastError})` : ''}
                    </span>
                    <span className="muted webhooks-when">
                      {formatDateTime(d.deliveredAt ?? d.lastAttemptAt ?? d.createdAt)} · {w.attempts(d.attempts)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </article>
        ))}
      </section>

      <section className="card" aria-labelledby="webhooks-add-title">
        <h2 id="webhooks-add-title">{w.createTitle}</h2>
        <ErrorSummary errors={create ? e : null} idPrefix="webhooks-" />
        <Form method="post" key={data?.intent === 'secret' && data.created ? `made-${data.id}` : 'new'} noValidate>
          <TextField
            id="webhooks-url"
            name="url"
            label={w.url}
            hint={w.urlHint}
            type="url"
            inputMode="url"
            {...form.url}
            autoComplete="off"
            defaultValue={typed?.url}
            error={e.url}
          />
          <fieldset
            id="webhooks-events"
            className="webhooks-events"
            aria-invalid={e.events ? true : undefined}
            aria-describedby={e.events ? 'webhooks-events-error' : undefined}
          >
            <legend>{w.eventsLegend}</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <div className="check" key={type}>
                <input
                  id={`webhooks-event-${type}`}
                  type="checkbox"
                  name="events"
                  value={type}
                  defaultChecked={typed ? checked.has(type) : true}
                />
                <label htmlFor={`webhooks-event-${type}`}>
                  {w.events[type]} <code>{type}</code>
                </label>
              </div>
            ))}
            {e.events ? (
              <p id="webhooks-events-error" className="error">
                {e.events}
              </p>
            ) : null}
          </fieldset>
          <input type="hidden" name="intent" value="create" />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {w.create}
          </button>
        </Form>
      </section>
    </div>
  );
}
