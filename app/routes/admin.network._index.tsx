// /admin/network ("Nätverksnycklar"): the super admin's keys for the operator's usage feed (name, prefix, created
// by, created, last used, status), a form to create one, each live key's revoke link (a confirm page), and the link
// to the records kept aside. The new key is shown once, on the answer to the form's POST (never stored, never in a
// URL; the page is no-store).
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { KeyCreated, KeyTable } from '#app/components/KeyList.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { ErrorSummary } from '#app/components/ui/ErrorSummary.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';
import { attempt, formText } from '#app/utils/forms.server.ts';
import { draftOf } from '#app/utils/step-up.ts';
import { stepUpRedirect, stepUpWanted } from '#app/utils/step-up.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { NETWORK_KEY_NAME_MAX } from '#domain/network/schemas.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { t } from '#domain/texts/common.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { tPasskeyPrompt } from '#domain/texts/passkey-prompt.ts';

const k = tNetwork;
const PATH = '/admin/network';

// A table page: the wide column (app/components/page-width.ts).
export const handle = { width: 'wide' };

export const ErrorBoundary = routeErrorBoundary(k.title);

export const meta: MetaFunction = () => [{ title: `${k.title} – ${t.appName}` }];

// The answer with a new key must not be kept by any cache.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireSuperAdmin(request, context);
  const keys = await context.trpc.networkKeys.list();
  const url = new URL(request.url);
  // A form refused for want of a step-up comes back with its values (app/utils/step-up.ts).
  const draft = draftOf(url, ['name'] as const);
  const wanted = stepUpWanted(session);
  return {
    draft,
    stepUpNotice: draft && wanted ? tPasskeyPrompt.stepUp[wanted === 'none' ? 'notDoneNone' : 'notDone'] : null,
    notice: url.searchParams.get('notice') === 'revoked',
    keys: keys.map((key) => ({
      ...key,
      created: formatDateTime(key.createdAt),
      lastUsed: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : k.never,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireSuperAdmin(request, context);
  const form = await request.formData();
  const values = { name: formText(form, 'name').slice(0, 1000) };
  const result = await attempt(() => context.trpc.networkKeys.create({ name: values.name }));
  if (!result.ok && result.stepUp) return stepUpRedirect(PATH, values);
  if (!result.ok) return { created: null, values, errors: result.fields };
  return { created: { ...result.value, name: values.name.trim() }, values: null, errors: null };
}

export default function NetworkKeys() {
  const { keys, notice, draft, stepUpNotice } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const typed = data?.values ?? draft;
  const busy = useNavigation().state === 'submitting';
  const e: Record<string, string | undefined> = data?.errors ?? {};
  const created = data?.created ?? null;
  return (
    <div className="admin apikeys network-keys">
      <h1>{k.title}</h1>
      <p>{k.intro}</p>
      <p>
        <Link to="/admin/network/aside">{k.asideLink}</Link>
      </p>
      {notice && !data ? (
        <Notice kind="success" role="status">
          {k.revokedNotice}
        </Notice>
      ) : null}

      {created ? (
        <KeyCreated idPrefix="network-" texts={k} name={created.name} secret={created.key} backTo={PATH} />
      ) : null}

      <KeyTable
        idPrefix="network-"
        keys={keys}
        texts={{ ...k, status: k.statusHeader }}
        statusText={(key) => k.status[key.status]}
        revokePath={(key) => `${PATH}/${key.id}/revoke`}
      />

      <section className="card" aria-labelledby="network-create-title">
        <h2 id="network-create-title">{k.createTitle}</h2>
        {stepUpNotice && !data ? (
          <Notice kind="warning" role="alert" className="step-up-refused">
            {stepUpNotice}
          </Notice>
        ) : null}
        <ErrorSummary
          errors={data?.errors ? e : null}
          idPrefix="network-"
          fields={{ name: {} }}
          lead={tAdmin.failedReason}
          formTitle={tAdmin.failed}
        />
        <Form method="post" key={created ? created.id : 'new'} noValidate>
          <TextField
            id="network-name"
            name="name"
            label={k.name}
            hint={k.nameHint}
            required
            maxLength={NETWORK_KEY_NAME_MAX}
            autoComplete="off"
            defaultValue={typed?.name}
            error={e.name}
          />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {k.create}
          </button>
        </Form>
      </section>
    </div>
  );
}
