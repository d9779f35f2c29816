// The recovery-code form (a plain form: works without JavaScript), on /login/passkey and /security/confirm.
import { Form } from '@remix-run/react';
import { tSecurity } from '#domain/texts/security.ts';

export function RecoveryCodeForm({ error, redirectTo }: { error?: string | null; redirectTo?: string | null }) {
  const r = tSecurity.recovery;
  return (
    <Form method="post" className="card" reloadDocument>
      <h2>{r.formHeading}</h2>
      <input type="hidden" name="intent" value="recovery" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <div className="field">
        <label htmlFor="recovery-code">{r.codeLabel}</label>
        <input
          id="recovery-code"
          name="code"
          type="text"
          required
          maxLength={40}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'recovery-code-hint recovery-code-error' : 'recovery-code-hint'}
        />
        <p id="recovery-code-hint" className="hint">
          {r.codeHint}
        </p>
        {error ? (
          <p id="recovery-code-error" className="error">
            {error}
          </p>
        ) : null}
      </div>
      <button className="btn" type="submit">
        {r.submit}
      </button>
    </Form>
  );
}
