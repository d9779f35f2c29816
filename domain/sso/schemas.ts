// A company's sign-in settings (single sign-on through its identity provider, passkeys for everyone): the
// procedures' input. Pure zod, so the pages read their HTML constraints from it.
import { tSecurity } from '#domain/texts/security.ts';
import { rowId, z } from '#domain/zod.ts';

const e = tSecurity.sso.errors;

export const SSO_DOMAINS_MAX = 50;
// A host name: labels of letters, digits and hyphens, at least one dot, no trailing dot (lower-cased first).
const DOMAIN_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * The issuer's URL by its form: https, or http to the own machine only (a provider on loopback). Where it may
 * point is the server's address policy, the one of webhook targets (server/net/target-policy.ts): checked with
 * DNS when the settings are saved, for every endpoint its discovery names too, and again at every connection.
 */
export function issuerAllowed(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** One per line or comma-separated; lower-cased, an "@" before a domain dropped, duplicates once. */
export function splitDomains(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const domain = raw.trim().toLowerCase().replace(/^@/, '');
    if (domain && !out.includes(domain)) out.push(domain);
  }
  return out;
}

export const ssoSaveFields = {
  issuer: z.string({ error: e.issuer }).trim().min(1, e.issuer).max(500, e.issuer).refine(issuerAllowed, e.issuer),
  clientId: z.string({ error: e.clientId }).trim().min(1, e.clientId).max(300, e.clientId),
  // Empty on an edit: the stored secret is kept.
  clientSecret: z.string().max(1000, e.clientSecret).default(''),
  domains: z
    .array(z.string().max(253))
    .min(1, e.domains)
    .max(SSO_DOMAINS_MAX, e.tooManyDomains)
    .superRefine((domains, c) => {
      const bad = domains.find((d) => !DOMAIN_RE.test(d));
      if (bad !== undefined) c.addIssue({ code: 'custom', message: e.domain(bad.slice(0, 253)) });
    }),
  allowEmailLink: z.boolean(),
  createUsers: z.boolean(),
  mfaClaim: z
    .string()
    .trim()
    .max(200, e.mfaClaim)
    .transform((v) => (v === '' ? null : v))
    .nullable(),
};

export const ssoSaveInput = z.object(ssoSaveFields);
export type SsoSaveInput = z.input<typeof ssoSaveInput>;

export const companyIdInput = z.object({ companyId: rowId('Ogiltigt id.') });
export const adminSsoSaveInput = ssoSaveInput.extend({ companyId: rowId('Ogiltigt id.') });
/** Checks a saved domain's TXT record now (the owner's "Kontrollera"). */
export const checkDomainInput = z.object({ domain: z.string().trim().toLowerCase().min(1).max(253) });
export const adminCheckDomainInput = checkDomainInput.extend({ companyId: rowId('Ogiltigt id.') });
export const checkDomainOutput = z.object({
  domain: z.string(),
  /** verified: the record is there (the domain signs in through the provider); missing: not (yet) found;
   * refused: the domain cannot be the company's; unavailable: DNS did not answer (nothing changed). */
  state: z.enum(['verified', 'missing', 'refused', 'unavailable']),
});
export type DomainCheckState = z.infer<typeof checkDomainOutput>['state'];
export const requirePasskeysInput = z.object({ requirePasskeys: z.boolean() });
export const adminRequirePasskeysInput = requirePasskeysInput.extend({ companyId: rowId('Ogiltigt id.') });

/** What the settings pages show: never the client secret, only whether one is stored. */
export const ssoSettingsOutput = z.object({
  companyId: z.number(),
  companyName: z.string(),
  requirePasskeys: z.boolean(),
  sso: z
    .object({
      issuer: z.string(),
      clientId: z.string(),
      hasClientSecret: z.boolean(),
      /** Each domain and its proof: only a verified one signs in through the provider. */
      domains: z.array(
        z.object({
          domain: z.string(),
          verified: z.boolean(),
          /** The TXT record that proves it: its name and its text. */
          txtName: z.string(),
          txtValue: z.string(),
        }),
      ),
      allowEmailLink: z.boolean(),
      createUsers: z.boolean(),
      mfaClaim: z.string().nullable(),
    })
    .nullable(),
  /** The redirect URI to register at the provider. */
  callbackUrl: z.string(),
});
export type SsoSettings = z.infer<typeof ssoSettingsOutput>;
