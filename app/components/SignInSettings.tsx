// A company's sign-in settings: its identity provider (OpenID Connect) and domains, and passkeys for everyone.
// Plain forms told apart by their intent, so they work without JavaScript; errors next to the fields, the typed
// values kept (never the client secret: it is only ever written, and an empty field keeps the stored one).
import { Form, useNavigation } from '@remix-run/react';
import { Field } from '#app/components/Field.tsx';
import { TextField } from '#app/components/TextField.tsx';
import { FORM_ERROR } from '#app/utils/forms.ts';
import type { DomainCheckState, SsoSettings } from '#domain/sso/schemas.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { Badge } from '#app/components/ui/Badge.tsx';
import { Notice } from '#app/components/ui/Notice.tsx';

const s = tSecurity.sso;

type Constraint = { maxLength?: number; required?: boolean; type?: string };

export type SignInSettingsData =
  | { intent: 'save'; values: Record<string, string>; checks: Record<string, boolean>; errors: Record<string, string> }
  | { intent: 'saved' | 'removed' | 'passkeys'; notice: string }
  | { intent: 'failed'; error: string; stepUp: boolean }
  | { intent: 'checked'; domain: string; state: DomainCheckState; notice: string }
  | undefined;

function Check({ id, label, checked }: { id: string; label: string; checked: boolean }) {
  return (
    <div className="check-field">
      <div className="check">
        <input id={id} name={id} type="checkbox" defaultChecked={checked} />
        <label htmlFor={id}>{label}</label>
      </div>
    </div>
  );
}

export function SignInSettings({
  settings,
  data,
  form,
  stepUpHref,
  ssoStepUp,
}: {
  settings: SsoSettings;
  data: SignInSettingsData;
  form: { issuer: Constraint; clientId: Constraint; clientSecret: Constraint; mfaClaim: Constraint };
  /** Where the user confirms with a passkey (and comes back). */
  stepUpHref: string;
  /** The session was signed in by the company's provider, which does MFA: it may confirm there too. */
  ssoStepUp?: { redirectTo: string } | null;
}) {
  const busy = useNavigation().state === 'submitting';
  const sso = settings.sso;
  const edit = data?.intent === 'save' ? data : null;
  const errors: Record<string, string | undefined> = edit?.errors ?? {};
  const formError = errors[FORM_ERROR] ?? (data?.intent === 'failed' ? data.error : undefined);
  const stepUp = formError === tSecurity.stepUp.required;
  const v = edit?.values;
  const checks = edit?.checks;
  return (
    <>
      {data && 'notice' in data ? (
        data.intent === 'checked' && data.state !== 'verified' ? (
          <Notice kind="error" role="alert">
            {data.notice}
          </Notice>
        ) : (
          <Notice kind="success" role="status">
            {data.notice}
          </Notice>
        )
      ) : null}
      {formError ? (
        <Notice kind="error" as="div" role="alert">
          <p>{formError}</p>
          {stepUp ? (
            <p>
              <a href={stepUpHref}>{s.stepUpLink}</a>
            </p>
          ) : null}
          {stepUp && ssoStepUp ? (
            <form method="post" action="/auth/sso/step-up">
              <input type="hidden" name="redirectTo" value={ssoStepUp.redirectTo} />
              <button className="btn" type="submit">
                {s.stepUpSso}
              </button>
            </form>
          ) : null}
        </Notice>
      ) : null}

      <section aria-labelledby="sso-title" className="card">
        <h2 id="sso-title">{s.providerHeading}</h2>
        <p>{s.intro}</p>
        <p className="muted">{sso ? s.configured(sso.issuer) : s.notConfigured}</p>
        <p className="hint">{s.callbackHint(settings.callbackUrl)}</p>
        <Form method="post" reloadDocument={false}>
          <input type="hidden" name="intent" value="save" />
          <TextField
            id="issuer"
            name="issuer"
            label={s.issuer}
            {...form.issuer}
            defaultValue={v?.issuer ?? sso?.issuer ?? ''}
            placeholder="https://login.foretag.se"
            error={errors.issuer}
          />
          <TextField
            id="clientId"
            name="clientId"
            label={s.clientId}
            {...form.clientId}
            autoComplete="off"
            defaultValue={v?.clientId ?? sso?.clientId ?? ''}
            error={errors.clientId}
          />
          <TextField
            id="clientSecret"
            name="clientSecret"
            label={s.clientSecret}
            type="password"
            autoComplete="new-password"
            maxLength={form.clientSecret.maxLength}
            required={!sso}
            hint={sso ? s.clientSecretKeep : undefined}
            defaultValue=""
            error={errors.clientSecret}
          />
          <Field id="domains" label={s.domains} hint={s.domainsHint} error={errors.domains}>
            {(aria) => (
              <textarea
                {...aria}
                name="domains"
                rows={3}
                required
                defaultValue={v?.domains ?? sso?.domains.map((d) => d.domain).join('\n') ?? ''}
              />
            )}
          </Field>
          <Check
            id="allowEmailLink"
            label={s.allowEmailLink}
            checked={checks?.allowEmailLink ?? sso?.allowEmailLink ?? true}
          />
          <Check id="createUsers" label={s.createUsers} checked={checks?.createUsers ?? sso?.createUsers ?? false} />
          <TextField
            id="mfaClaim"
            name="mfaClaim"
            label={s.mfaClaim}
            hint={s.mfaClaimHint}
            {...form.mfaClaim}
            defaultValue={v?.mfaClaim ?? sso?.mfaClaim ?? ''}
            error={errors.mfaClaim}
          />
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {s.save}
          </button>
        </Form>
        {sso ? <DomainProofs domains={sso.domains} busy={busy} /> : null}
        {sso ? (
          <Form method="post" className="sso-remove">
            <input type="hidden" name="intent" value="remove" />
            <button className="btn btn-destructive" type="submit" disabled={busy}>
              {s.remove}
            </button>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="passkeys-title" className="card">
        <h2 id="passkeys-title">{s.passkeysHeading}</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="passkeys" />
          <Check
            key={String(settings.requirePasskeys)}
            id="requirePasskeys"
            label={s.requirePasskeys}
            checked={settings.requirePasskeys}
          />
          <button className="btn" type="submit" disabled={busy}>
            {s.savePasskeys}
          </button>
        </Form>
      </section>
    </>
  );
}

/** Each saved domain with its proof: verified, or the TXT record to add; a check of each (a plain form). */
function DomainProofs({ domains, busy }: { domains: NonNullable<SsoSettings['sso']>['domains']; busy: boolean }) {
  const d = tSsoDomains;
  return (
    <section aria-labelledby="sso-domains-title" className="sso-domains">
      <h3 id="sso-domains-title">{d.heading}</h3>
      <p className="hint">{d.intro}</p>
      {domains.length ? null : <p className="muted">{d.none}</p>}
      <ul>
        {domains.map((row) => (
          <li key={row.domain} data-testid={`sso-domain-${row.domain}`}>
            <p>
              <strong>{row.domain}</strong>{' '}
              <Badge tone={row.verified ? 'ok' : 'warning'}>{row.verified ? d.verified : d.unverified}</Badge>
            </p>
            {row.verified ? null : (
              <dl>
                <dt>{d.recordName}</dt>
                <dd>
                  <code>{row.txtName}</code>
                </dd>
                <dt>{d.recordType}</dt>
                <dd>
                  <code>TXT</code>
                </dd>
                <dt>{d.recordValue}</dt>
                <dd>
                  <code>{row.txtValue}</code>
                </dd>
              </dl>
            )}
            <Form method="post">
              <input type="hidden" name="intent" value="check" />
              <input type="hidden" name="domain" value={row.domain} />
              <button className="btn" type="submit" disabled={busy} aria-label={d.checkLabel(row.domain)}>
                {d.check}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
