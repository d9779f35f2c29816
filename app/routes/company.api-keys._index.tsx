// /company/api-keys ("API-nycklar"): the company's keys (name, prefix, scope, created by, created,
// last used, expires, status), a form to create one, and each live key's revoke link (a confirm page). The
// new key is shown once, on the answer to the form's POST (never stored, never in a URL; the page is no-store).
import { CompanyTabs } from '#app/components/CompanyTabs.tsx';
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { KeyCreated, KeyTable } from '#app/components/KeyList.tsx';
import { Field } from '#app/components/Field.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { t } from '#domain/texts/common.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { formatDate, formatDateTime } from '#app/utils/text.ts';
import { draftOf } from '#app/utils/step-up.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyScope } from '#domain/api-keys/limits.ts';
import { Notice } from '#app/components/ui/Notice.tsx';

const k = tApiKeys;

export const ErrorBoundary = routeErrorBoundary(k.title);

export const meta: MetaFunction = () => [{ title: `${k.title} – ${t.appName}` }];

// The answer with a new key must not be kept by any cache.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

const when = (iso: string | null, fallback: string) => (iso ? formatDateTime(iso) : fallback);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireOwner(request, context);
  const keys = await context.trpc.apiKeys.list();
  const url = new URL(request.url);
  const notice = url.searchParams.get('notice');
  // A form refused for want of a step-up comes back with its values (app/utils/step-up.ts).
  const draft = draftOf(url, ['name', 'scope', 'expiresAt'] as const);
  const wanted = stepUpWanted(session);
  return {
    draft,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    companyName: session.companyName,
    today: formatDate(new Date()),
    notice: notice === 'revoked' ? notice : null,
    keys: keys.map((key) => ({
      ...key,
      created: when(key.createdAt, ''),
      lastUsed: when(key.lastUsedAt, k.never),
      expires: key.expiresAt ? formatDate(new Date(new Date(key.expiresAt).getTime() - 1)) : k.noExpiry,
    })),
  };
}

type Values = { name: string; scope: string; expiresAt: string };

export async function action({ request, context }: ActionFunctionArgs) {
  requireOwner(request, context);
  const form = await request.formData();
  const values: Values = {
    name: formText(form, 'name').slice(0, 1000),
    scope: formText(form, 'scope').slice(0, 20),
    expiresAt: formText(form, 'expiresAt').slice(0, 40),
  };
  const result = await attempt(() =>
    context.trpc.apiKeys.create({
      name: values.name,
      scope: values.scope as ApiKeyScope,
      expiresAt: values.expiresAt || undefined,
    }),
  );
  if (!result.ok && result.stepUp) return stepUpRedirect('/company/api-keys', values);
  if (!result.ok) return { created: null, values, errors: result.fields };
  return { created: { ...result.value, name: values.name.trim() }, values: null, errors: null };
}

export default function ApiKeys() {
  const { companyName, keys, today, notice, draft, stepUpNotice } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const typed = data?.values ?? draft;
  const busy = useNavigation().state === 'submitting';
  const e: Record<string, string | undefined> = data?.errors ?? {};
  const created = data?.created ?? null;
  return (
    <div className="admin company-admin apikeys">
      <h1>{k.title}</h1>
      <CompanyTabs />
      <p className="muted subtitle">{companyName}</p>
      <p>{k.intro}</p>
      <p>
        {/* A plain link: /api/docs is the server's own page, not a route of the app. */}
        <a href="/api/docs">{k.docsLink}</a>: {k.docsHint}
      </p>
      {notice && !data ? (
        <Notice kind="success" role="status">
          {k.revokedNotice}
        </Notice>
      ) : null}

      {created ? (
        <KeyCreated idPrefix="apikeys-" texts={k} name={created.name} secret={created.key} backTo="/company/api-keys" />
      ) : null}

      <KeyTable
        idPrefix="apikeys-"
        keys={keys}
        texts={k}
        statusText={(key) => k.statuses[key.status]}
        revokePath={(key) => `/company/api-keys/${key.id}/revoke`}
        afterPrefix={[{ header: k.scope, cell: (key) => k.scopes[key.scope], mobile: true }]}
        afterLastUse={[{ header: k.expires, cell: (key) => key.expires, when: true }]}
      />

      <section className="card" aria-labelledby="apikeys-create-title">
        <h2 id="apikeys-create-title">{k.createTitle}</h2>
        {stepUpNotice && !data ? (
          <Notice kind="warning" role="alert" className="step-up-refused">
            {stepUpNotice}
          </Notice>
        ) : null}
        <ErrorSummary
          errors={data?.errors ? e : null}
          idPrefix="apikeys-"
          fields={{ name: {}, scope: {}, expiresAt: { id: 'apikeys-expires' } }}
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        <Form method="post" key={created ? created.id : 'new'} noValidate>
          <TextField
            id="apikeys-name"
            name="name"
            label={k.name}
            hint={k.nameHint}
            required
            maxLength={API_KEY_NAME_MAX}
            autoComplete="off"
            defaultValue={typed?.name}
            error={e.name}
          />
          <Field id="apikeys-scope" label={k.scope} error={e.scope} hint={scopeHint()}>
            {(aria) => (
              <select {...aria} name="scope" required defaultValue={typed?.scope || 'read'}>
                {API_KEY_SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {k.scopes[s]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <TextField
            id="apikeys-expires"
            name="expiresAt"
            type="date"
            label={k.expires}
            hint={k.expiresHint}
            min={today}
            defaultValue={typed?.expiresAt}
            error={e.expiresAt}
          />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {k.create}
          </button>
        </Form>
      </section>
    </div>
  );
}

function scopeHint() {
  return API_KEY_SCOPES.map((s) => `${k.scopes[s]}: ${k.scopeHints[s]}`).join(' ');
}
