// The rules of a single sign-on domain that both sides need: the public mail services no company may claim, and
// the DNS TXT record by which a company proves that a domain is its own (docs/decisions/027-single-sign-on.md).

/** Where the proof goes: a TXT record on this name (beside the domain's own records, touching none of them). */
export const ssoTxtName = (domain: string) => `_sim-portal.${domain}`;
/** The TXT record's whole text: one per company and domain (another company's record never proves this one's). */
export const ssoTxtValue = (token: string) => `sim-portal-verification=${token}`;

/**
 * Mail services anyone can have an address at: their addresses are people's, not one company's, so no company's
 * provider may sign them in (a subdomain of one counts too).
 */
export const PUBLIC_MAIL_DOMAINS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'outlook.se',
  'hotmail.com',
  'hotmail.se',
  'live.com',
  'live.se',
  'msn.com',
  'yahoo.com',
  'yahoo.se',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'tutanota.com',
  'tuta.io',
  'fastmail.com',
  'hey.com',
  'telia.com',
  'spray.se',
  'bredband.net',
  'bahnhof.se',
  'comhem.se',
  'tele2.se',
];

export function isPublicMailDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  return PUBLIC_MAIL_DOMAINS.some((p) => d === p || d.endsWith(`.${p}`));
}
