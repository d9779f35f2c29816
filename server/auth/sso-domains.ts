// Single sign-on domains: which company's provider signs in an address (only a domain its company has proved it
// owns by a DNS TXT record, and never an existing user of another company), which domains a company may claim
// (never a public mail service, never one another company's or the staff's users use, never one another company
// has proved), and the proof itself, asked of the resolvers SSO_DNS_SERVERS names (the system's by default).
import { randomBytes } from 'node:crypto';
import { promises as dnsPromises } from 'node:dns';
import { Conflict, NotFound } from '#domain/errors.ts';
import type { DomainCheckState } from '#domain/sso/schemas.ts';
import { isPublicMailDomain, ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { tSsoDomains } from '#domain/texts/sso-domains.ts';
import { normalizeEmail } from '#server/companies/email.ts';
import { type Company, SsoConfig, SsoDomain, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import type { Services } from '#server/services.ts';
import { recordSecurityEvent } from './security-audit.ts';

/** Who asked for a check (the trail names them when a domain's proof is found or lost). */
export type DomainActor = { userId: number; actingCompanyId: number | null };

const domainOf = (email: string) => normalizeEmail(email).split('@').pop() ?? '';

/** The company whose provider signs in this address, and whether it still lets e-mail links in; null if none. */
export async function ssoForEmail(
  em: Em,
  email: string,
): Promise<{ companyId: number; allowEmailLink: boolean } | null> {
  const address = normalizeEmail(email);
  const domain = domainOf(address);
  if (!domain) return null;
  const row = await em.findOne(SsoDomain, { domain, verifiedAt: { $ne: null } });
  if (!row) return null;
  // A user of another company in this domain (the staff's, or one added after the proof) keeps their own way in:
  // never sent to this company's provider, never without their link.
  const user = await em.findOne(User, { email: address });
  if (user && user.company.id !== row.company.id) return null;
  const sso = await em.findOne(SsoConfig, { company: row.company.id });
  return sso ? { companyId: row.company.id, allowEmailLink: sso.allowEmailLink } : null;
}

/**
 * Whether the company may not have this domain: a public mail service, a domain where a user of another company
 * (or of the staff company, for every company) has an address, or one another company has proved.
 */
async function domainRefused(em: Em, companyId: number, domain: string): Promise<boolean> {
  if (isPublicMailDomain(domain)) return true;
  // The domain passed the settings' rule (letters, digits, hyphens and dots): nothing in it is a LIKE pattern.
  const users = await em.execute<Array<{ one: number }>>(
    `select 1 as one from app_user u join company c on c.id = u.company_id
      where (u.company_id <> ? or c.is_staff) and u.email like ? limit 1`,
    [companyId, `%@${domain}`],
  );
  if (users.length) return true;
  return (await em.count(SsoDomain, { domain, company: { $ne: companyId }, verifiedAt: { $ne: null } })) > 0;
}

/**
 * Refuses (409 on the domains, one message that names no holder and no reason) the first domain new to the company
 * that it may not have. Domains it already has stay: their proof is what counts, checked again after the save.
 */
export async function assertDomainsAllowed(tx: Em, companyId: number, domains: string[]): Promise<void> {
  const had = new Set((await tx.find(SsoDomain, { company: companyId })).map((d) => d.domain));
  for (const domain of domains)
    if (!had.has(domain) && (await domainRefused(tx, companyId, domain)))
      throw new Conflict(tSsoDomains.refused(domain), 'domains');
}

/** The company's domains become `domains`: the kept ones keep their token and proof, new ones are unproved. */
export async function replaceDomains(tx: Em, company: Company, domains: string[]): Promise<void> {
  await tx.nativeDelete(SsoDomain, { company: company.id, domain: { $nin: domains } });
  const kept = new Set((await tx.find(SsoDomain, { company: company.id })).map((d) => d.domain));
  for (const domain of domains)
    if (!kept.has(domain))
      tx.create(SsoDomain, {
        company,
        domain,
        verificationToken: randomBytes(18).toString('base64url'),
        verifiedAt: null,
      });
}

type Lookup = 'found' | 'missing' | 'unavailable';

/** Asks DNS for the domain's proof: the TXT record `sim-portal-verification=<token>` on `_sim-portal.<domain>`. */
async function lookupProof(services: Services, domain: string, token: string): Promise<Lookup> {
  const timeoutMs = services.config.sso.timeoutMs;
  const resolver = new dnsPromises.Resolver({ timeout: Math.max(100, Math.floor(timeoutMs / 2)), tries: 2 });
  if (services.config.ssoDnsServers) resolver.setServers(services.config.ssoDnsServers);
  try {
    const records = await resolver.resolveTxt(ssoTxtName(domain));
    // A TXT record may come in chunks of 255 characters: one record is their concatenation.
    return records.some((chunks) => chunks.join('').trim() === ssoTxtValue(token)) ? 'found' : 'missing';
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // No such name, or no TXT there: a clear "not there". Anything else (timeout, refused, SERVFAIL): unknown.
    if (code === 'ENOTFOUND' || code === 'ENODATA') return 'missing';
    services.log.warn({ domain, code: String(code) }, 'sso: DNS lookup of a domain proof failed');
    return 'unavailable';
  } finally {
    resolver.cancel();
  }
}

/** Records what DNS said of one domain: proved now, no longer proved, or refused to this company (in the trail). */
async function applyProof(
  em: Em,
  actor: DomainActor,
  companyId: number,
  domain: string,
  found: Lookup,
): Promise<DomainCheckState> {
  if (found === 'unavailable') return 'unavailable'; // nothing known: the state stays as it was
  try {
    return await em.fork().transactional(async (tx): Promise<DomainCheckState> => {
      const row = await tx.findOne(SsoDomain, { company: companyId, domain });
      if (!row) return 'missing';
      const trail = (action: 'ssoDomainVerified' | 'ssoDomainUnverified') =>
        recordSecurityEvent(tx, { action, by: actor, about: { userId: null, companyId }, details: { domain } });
      if (found === 'missing') {
        if (row.verifiedAt) trail('ssoDomainUnverified');
        row.verifiedAt = null;
        return 'missing';
      }
      // The rules again at the proof: users of another company may have come since the domain was saved.
      if (!row.verifiedAt && (await domainRefused(tx, companyId, domain))) return 'refused';
      if (!row.verifiedAt) trail('ssoDomainVerified');
      row.verifiedAt = new Date();
      return 'verified';
    });
  } catch (err) {
    // Two companies proving one domain at once: the unique index keeps one, the other is refused.
    if (err instanceof Error && /unique|duplicate/i.test(err.message)) return 'refused';
    throw err;
  }
}

/**
 * Checks the proof of the company's domains (or of `only`) now, in DNS, and records it: a domain signs in through
 * the provider from the moment its record is found, and stops when a check finds it gone.
 */
export async function checkSsoDomains(
  services: Services,
  em: Em,
  actor: DomainActor,
  companyId: number,
  only?: string,
): Promise<Array<{ domain: string; state: DomainCheckState }>> {
  const rows = await em.find(SsoDomain, { company: companyId, ...(only === undefined ? {} : { domain: only }) });
  if (only !== undefined && !rows.length) throw new NotFound(tSsoDomains.unknownDomain);
  const looked = await Promise.all(
    rows.map(async (row) => ({
      domain: row.domain,
      found: await lookupProof(services, row.domain, row.verificationToken),
    })),
  );
  const out: Array<{ domain: string; state: DomainCheckState }> = [];
  for (const { domain, found } of looked)
    out.push({ domain, state: await applyProof(em, actor, companyId, domain, found) });
  return out;
}
