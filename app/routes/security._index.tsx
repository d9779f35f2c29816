// /security ("Inloggningsnycklar"): the user's passkeys (name, added, last used, synced or on the device only;
// remove, after a step-up), adding one (JS: the browser's passkey prompt; a step-up first, said up front with the
// way to give it: the passkey, or for a user without one the e-mail link), the recovery codes left and new ones
// (step-up; shown once). Removing and new codes are plain forms; a missing step-up is said with the way to give it.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react';
import { useRef, useState } from 'react';
import { SecurityTabs } from '#app/components/SecurityTabs.tsx';
import { routeErrorBoundary } from '#app/components/RouteError.tsx';
import { PasskeyButton } from '#app/components/security/PasskeyButton.tsx';
import { RecoveryCodes } from '#app/components/security/RecoveryCodes.tsx';
import { StepUpPrompt } from '#app/components/security/StepUpPrompt.tsx';
import { t } from '#domain/texts/common.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { steppedUp } from '#app/utils/step-up-link.server.ts';
import { formText, procedureProblem } from '#app/utils/forms.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { Notice } from '#app/components/ui/Notice.tsx';
import { EmptyState } from '#app/components/ui/EmptyState.tsx';

const k = tSecurity.passkeys;
const r = tSecurity.recovery;

export const ErrorBoundary = routeErrorBoundary(tSecurity.title);
export const meta: MetaFunction = () => [{ title: `${k.heading} – ${tSecurity.title} – ${t.appName}` }];
// Recovery codes are in an action's answer: never kept by a cache.
export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const overview = await context.trpc.passkeys.overview();
  return {
    // Adding a passkey to a signed-in session needs a step-up (a passkey, or without one the e-mail link).
    steppedUp: steppedUp(session),
    passkeyRequired: overview.passkeyRequired,
    recoveryCodesLeft: overview.recoveryCodesLeft,
    passkeys: overview.passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      created: formatDateTime(p.createdAt.toISOString()),
      lastUsed: p.lastUsedAt ? formatDateTime(p.lastUsedAt.toISOString()) : null,
      backedUp: p.backedUp,
    })),
  };
}

type ActionData = { error?: string; stepUp?: boolean; notice?: string; recoveryCodes?: string[] };

export async function action({ request, context }: ActionFunctionArgs): Promise<ActionData> {
  requireUser(request, context);
  const form = await request.formData();
  try {
    if (formText(form, 'intent') === 'renewCodes') {
      const { recoveryCodes } = await context.trpc.passkeys.renewRecoveryCodes();
      return { recoveryCodes };
    }
    const id = Number(formText(form, 'id'));
    const { name } = await context.trpc.passkeys.remove({ id: Number.isSafeInteger(id) && id > 0 ? id : 0 });
    return { notice: k.removed(name) };
  } catch (err) {
    const problem = procedureProblem(err);
    if (!problem) throw err;
    const { stepUp } = problem;
    if (problem.code === 'NOT_FOUND') return { error: k.notFound };
    if (problem.code === 'BAD_REQUEST' || stepUp) return { error: problem.message, stepUp };
    throw err;
  }
}

type Added = { name: string; recoveryCodes: string[] | null };

export default function SecurityPasskeys() {
  const { passkeys, recoveryCodesLeft, passkeyRequired, steppedUp } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const revalidator = useRevalidator();
  const [added, setAdded] = useState<Added | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const codes = acted?.recoveryCodes ?? added?.recoveryCodes ?? null;
  return (
    <div className="admin security-passkeys">
      <h1>{tSecurity.title}</h1>
      <SecurityTabs />
      <h2>{k.heading}</h2>
      <p>{k.intro}</p>
      {acted?.stepUp ? <StepUpPrompt message={acted.error} /> : null}
      {acted?.error && !acted.stepUp ? (
        <Notice kind="error" role="alert">
          {acted.error}
        </Notice>
      ) : null}
      {acted?.notice ? (
        <Notice kind="success" role="status">
          {acted.notice}
        </Notice>
      ) : null}
      {added ? (
        <Notice kind="success" role="status">
          {k.added(added.name)}
        </Notice>
      ) : null}
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {passkeys.length ? (
        <div className="table-wrap">
          <table className="passkeys-table">
            <thead>
              <tr>
                <th scope="col">{k.name}</th>
                <th scope="col">{k.created}</th>
                <th scope="col">{k.lastUsed}</th>
                <th scope="col" className="passkeys-storage">
                  {k.storage}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{k.remove}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((p) => (
                <tr key={p.id}>
                  <td className="passkeys-name">{p.name}</td>
                  <td className="passkeys-when">{p.created}</td>
                  <td className="passkeys-when">{p.lastUsed ?? k.never}</td>
                  <td className="passkeys-storage">{p.backedUp ? k.synced : k.device}</td>
                  <td>
                    {passkeyRequired && passkeys.length === 1 ? null : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="id" value={p.id} />
                        <button
                          className="btn btn-destructive"
                          type="submit"
                          disabled={busy}
                          aria-label={k.removeLabel(p.name)}
                        >
                          {k.remove}
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <EmptyState>{k.none}</EmptyState>
      )}
      {passkeyRequired && passkeys.length === 1 ? <p className="muted">{k.lastRequired}</p> : null}

      <section className="card" aria-labelledby="add-passkey">
        <h3 id="add-passkey">{k.addHeading}</h3>
        {steppedUp ? null : (
          <StepUpPrompt
            none={!passkeys.length}
            message={passkeys.length ? tSecurity.stepUp.toAdd : tSecurity.stepUp.toAddNone}
          />
        )}
        {steppedUp ? (
          <PasskeyButton<Added>
            purpose="register"
            label={k.add}
            name={() => nameRef.current?.value ?? ''}
            onDone={(done) => {
              setAdded(done);
              if (nameRef.current) nameRef.current.value = '';
              void revalidator.revalidate();
            }}
          >
            <div className="field">
              <label htmlFor="passkey-name">{k.nameLabel}</label>
              <input
                id="passkey-name"
                ref={nameRef}
                type="text"
                maxLength={100}
                placeholder={k.defaultName(passkeys.length + 1)}
                aria-describedby="passkey-name-hint"
              />
              <p id="passkey-name-hint" className="hint">
                {k.nameHint}
              </p>
            </div>
          </PasskeyButton>
        ) : null}
      </section>

      <section className="card" aria-labelledby="recovery-heading">
        <h3 id="recovery-heading">{r.heading}</h3>
        <p>{r.explain}</p>
        <p>{r.left(recoveryCodesLeft)}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="renewCodes" />
          <button className="btn" type="submit" disabled={busy} aria-describedby="renew-hint">
            {r.create}
          </button>
          <p id="renew-hint" className="muted">
            {r.createHint}
          </p>
        </Form>
      </section>
    </div>
  );
}
