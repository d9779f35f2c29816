// The company's sign-in settings form (/company/sign-in and /admin/companies/:companyId/sign-in): reading the post,
// calling the procedures the page names, and the answer the form shows (field errors, values kept, never the
// client secret).
import { splitDomains, ssoSaveInput, type DomainCheckState, type SsoSaveInput } from '#domain/sso/schemas.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { fieldConstraint } from './constraints.ts';
import { FORM_ERROR, formText, procedureProblem } from './forms.server.ts';

export type SignInSettingsAnswer =
  | { intent: 'save'; values: Record<string, string>; checks: Record<string, boolean>; errors: Record<string, string> }
  | { intent: 'saved' | 'removed' | 'passkeys'; notice: string }
  | { intent: 'failed'; error: string; stepUp: boolean }
  | { intent: 'checked'; domain: string; state: DomainCheckState; notice: string };

export type SignInSettingsProcedures = {
  save: (input: SsoSaveInput) => Promise<unknown>;
  remove: () => Promise<unknown>;
  requirePasskeys: (value: boolean) => Promise<unknown>;
  checkDomain: (domain: string) => Promise<{ domain: string; state: DomainCheckState }>;
};

/** What the owner is told after a domain's check. */
export function domainCheckNotice(domain: string, state: DomainCheckState): string {
  return state === 'refused' ? tSsoDomains.refused(domain) : tSsoDomains.results[state](domain);
}

/** The HTML constraints of the text fields, for the loaders. */
export function signInConstraints() {
  const s = ssoSaveInput.shape;
  return {
    issuer: { ...fieldConstraint(s.issuer), type: 'url' },
    clientId: fieldConstraint(s.clientId),
    clientSecret: { maxLength: 1000 },
    mfaClaim: { maxLength: 200 },
  };
}

/** Runs a change; a refusal comes back for the form (a missing step-up says so), anything else is thrown. */
async function run<T>(
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; fields: Record<string, string>; stepUp: boolean }> {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    const problem = procedureProblem(err);
    if (!problem) throw err;
    if (problem.stepUp) return { ok: false, fields: { [FORM_ERROR]: problem.message }, stepUp: true };
    if (problem.code === 'BAD_REQUEST' || problem.code === 'CONFLICT') {
      const fields = Object.keys(problem.fields).length ? problem.fields : { [FORM_ERROR]: problem.message };
      return { ok: false, fields, stepUp: false };
    }
    if (problem.code === 'NOT_FOUND') throw new Response('Not Found', { status: 404 });
    if (problem.code === 'FORBIDDEN') throw new Response('Forbidden', { status: 403 });
    throw err;
  }
}

export async function signInSettingsAction(
  request: Request,
  procedures: SignInSettingsProcedures,
): Promise<SignInSettingsAnswer> {
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const s = tSecurity.sso;
  if (intent === 'remove') {
    const r = await run(() => procedures.remove());
    return r.ok
      ? { intent: 'removed', notice: s.removed }
      : { intent: 'failed', error: r.fields[FORM_ERROR] ?? Object.values(r.fields)[0] ?? '', stepUp: r.stepUp };
  }
  if (intent === 'passkeys') {
    const r = await run(() => procedures.requirePasskeys(form.get('requirePasskeys') === 'on'));
    return r.ok
      ? { intent: 'passkeys', notice: s.passkeysSaved }
      : { intent: 'failed', error: r.fields[FORM_ERROR] ?? Object.values(r.fields)[0] ?? '', stepUp: r.stepUp };
  }
  if (intent === 'check') {
    const r = await run(() => procedures.checkDomain(formText(form, 'domain').slice(0, 253)));
    if (!r.ok)
      return { intent: 'failed', error: r.fields[FORM_ERROR] ?? Object.values(r.fields)[0] ?? '', stepUp: r.stepUp };
    const { domain, state } = r.value;
    return { intent: 'checked', domain, state, notice: domainCheckNotice(domain, state) };
  }
  if (intent !== 'save') throw new Response('Bad Request', { status: 400 });
  const values = {
    issuer: formText(form, 'issuer').slice(0, 500),
    clientId: formText(form, 'clientId').slice(0, 300),
    domains: formText(form, 'domains').slice(0, 20_000),
    mfaClaim: formText(form, 'mfaClaim').slice(0, 200),
  };
  const checks = { allowEmailLink: form.get('allowEmailLink') === 'on', createUsers: form.get('createUsers') === 'on' };
  const r = await run(() =>
    procedures.save({
      issuer: values.issuer,
      clientId: values.clientId,
      clientSecret: formText(form, 'clientSecret'),
      domains: splitDomains(values.domains),
      mfaClaim: values.mfaClaim,
      ...checks,
    }),
  );
  // The secret is never sent back into the form, also not after a refusal.
  if (!r.ok) return { intent: 'save', values, checks, errors: r.fields };
  return { intent: 'saved', notice: s.saved };
}
