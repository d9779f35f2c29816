// Talking to a company's identity provider: every request the portal makes there (discovery, token, keys) goes
// through the guarded fetch, held to the address policy of webhook targets (server/net/target-policy.ts) before
// any packet is sent, and within SSO_DISCOVERY_TIMEOUT_MS; every endpoint the discovery document names is held to
// the same policy before it is used. A provider that cannot be used is one Swedish problem for its users, and a
// message naming the field to its owner when the settings are saved (`verifyProvider`).
import * as oidc from 'openid-client';
import { Invalid } from '#domain/errors.ts';
import { tSecurity } from '#domain/texts/security.ts';
import type { SsoConfig } from '#server/db/entities.ts';
import { guardedFetch, TargetRefused } from '#server/net/guarded-fetch.ts';
import { targetProblem, urlProblem, type TargetPolicy, type UrlProblem } from '#server/net/target-policy.ts';
import type { Services } from '#server/services.ts';
import { decryptSecret, SsoKeyMissing } from './sso-secret.ts';

/** The provider's discovery document (and its keys) are reused this long per issuer. */
const METADATA_TTL_MS = 5 * 60 * 1000;

/** The endpoints a sign-in needs: the browser goes to the first, the portal posts the code to the second. */
const REQUIRED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint'] as const;

/** A discovery document naming an endpoint that may not (or cannot) be used. */
export class ProviderMisconfigured extends Error {
  constructor(
    readonly field: string,
    readonly reason: UrlProblem | 'missing',
  ) {
    super(`provider metadata: ${field} (${reason})`);
    this.name = 'ProviderMisconfigured';
  }
}

export const providerPolicy = (services: Services): TargetPolicy => ({
  allowPrivateTargets: services.config.sso.allowPrivateTargets,
});

/** Every URL the document names (the endpoints, and the mTLS aliases of them), with the field's name. */
function namedUrls(metadata: oidc.ServerMetadata): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(metadata))
    if (key.endsWith('_endpoint') || key.endsWith('_uri')) out.push([key, value]);
  const aliases = metadata.mtls_endpoint_aliases;
  if (aliases && typeof aliases === 'object')
    for (const [key, value] of Object.entries(aliases)) out.push([`mtls_endpoint_aliases.${key}`, value]);
  for (const key of REQUIRED_ENDPOINTS) if (!(key in metadata)) out.push([key, undefined]);
  // An optional endpoint the document leaves empty is one it does not offer.
  const required = new Set<string>(REQUIRED_ENDPOINTS);
  const present = out.filter(([key, value]) => required.has(key) || (value !== undefined && value !== null));
  // Documentation pages, not requested by the portal.
  return present.filter(([key]) => !/^(service_documentation|op_policy_uri|op_tos_uri)$/.test(key));
}

/**
 * The first endpoint of the document the policy refuses, by its form (no DNS: a connection checks its own
 * address when it is made). Throws ProviderMisconfigured.
 */
export function checkEndpoints(metadata: oidc.ServerMetadata, policy: TargetPolicy): void {
  for (const [field, value] of namedUrls(metadata)) {
    if (value === undefined || value === null || value === '') throw new ProviderMisconfigured(field, 'missing');
    if (typeof value !== 'string') throw new ProviderMisconfigured(field, 'invalid');
    const problem = urlProblem(value, policy);
    if (problem) throw new ProviderMisconfigured(field, problem);
  }
}

const metadataCache = new Map<string, { at: number; metadata: oidc.ServerMetadata; jwks?: oidc.ExportedJWKSCache }>();

/** A saved provider is discovered afresh. */
export function forgetProvider(issuer: string): void {
  metadataCache.delete(issuer);
}

/** The fetch of every request to a provider: the address policy at each connection, the time limit, the log. */
function providerFetch(services: Services): oidc.CustomFetch {
  const fetcher = guardedFetch({
    policy: providerPolicy(services),
    timeoutMs: services.config.sso.timeoutMs,
    onRefused: (refused) => {
      const u = new URL(refused.url);
      services.log.warn(
        { target: `${u.origin}${u.pathname}`.slice(0, 300), problem: refused.problem },
        'sso: connection refused by the address policy',
      );
    },
  });
  return (url, options) => fetcher(url, options);
}

/** openid-client's configuration of the company's provider (discovered, or from the 5-minute cache). */
export async function providerConfig(services: Services, sso: SsoConfig): Promise<oidc.Configuration> {
  const secret = decryptSecret(sso.clientSecret, services.config.sso.secretKey);
  const issuer = new URL(sso.issuer);
  // The policy lets plain http reach nothing but loopback, and that only with SSO_ALLOW_PRIVATE_TARGETS.
  const insecure = issuer.protocol === 'http:';
  const fetcher = providerFetch(services);
  const cached = metadataCache.get(sso.issuer);
  let config: oidc.Configuration;
  if (cached && Date.now() - cached.at < METADATA_TTL_MS) {
    config = new oidc.Configuration(cached.metadata, sso.clientId, secret, oidc.ClientSecretBasic(secret));
    if (cached.jwks) oidc.setJwksCache(config, cached.jwks);
    config[oidc.customFetch] = fetcher;
    if (insecure) oidc.allowInsecureRequests(config);
  } else {
    config = await oidc.discovery(issuer, sso.clientId, secret, oidc.ClientSecretBasic(secret), {
      [oidc.customFetch]: fetcher,
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    });
    const metadata = config.serverMetadata();
    checkEndpoints(metadata, providerPolicy(services));
    metadataCache.set(sso.issuer, { at: Date.now(), metadata });
  }
  return config;
}

export function rememberJwks(issuer: string, config: oidc.Configuration): void {
  const cached = metadataCache.get(issuer);
  const jwks = oidc.getJwksCache(config);
  if (cached && jwks) cached.jwks = jwks;
}

/** The provider's authorization URL; a document whose endpoint cannot make one throws ProviderMisconfigured. */
export function authorizationUrl(config: oidc.Configuration, params: Record<string, string>): URL {
  let url: URL;
  try {
    url = oidc.buildAuthorizationUrl(config, params);
  } catch {
    throw new ProviderMisconfigured('authorization_endpoint', 'invalid');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ProviderMisconfigured('authorization_endpoint', 'scheme');
  return url;
}

const causes = function* (err: unknown): Generator<unknown> {
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    yield e;
    e = e instanceof Error ? e.cause : undefined;
  }
};

/** A provider the portal may not or cannot use as it is (its address, its document), not one that is down. */
export function isMisconfigured(err: unknown): boolean {
  for (const e of causes(err)) if (e instanceof TargetRefused || e instanceof ProviderMisconfigured) return true;
  return false;
}

/** No answer at all: refused, timed out, reset (or no key to read the client secret with). */
function isConnectionFailure(err: unknown): boolean {
  for (const e of causes(err)) {
    if (e instanceof SsoKeyMissing) return true;
    if (!(e instanceof Error)) break;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof TypeError && /fetch failed/i.test(e.message)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR|EPIPE)/.test(code))
      return true;
  }
  return false;
}

/** A provider that did not answer (refused, timed out, reset) rather than one that answered wrongly. */
export function isUnreachable(err: unknown): boolean {
  if (isConnectionFailure(err)) return true;
  // A discovery answer that is not a provider's (a 5xx page, a proxy's error) is a provider that is down.
  for (const e of causes(err))
    if (/RESPONSE_IS_NOT_CONFORM/i.test(String((e as { code?: unknown } | null)?.code))) return true;
  return false;
}

/** What may be logged of an error from the provider's side: its name, code and message (no secret is in them). */
export function errorSummary(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { error: String(err).slice(0, 200) };
  const cause = err.cause instanceof Error ? `${err.cause.name}: ${err.cause.message}` : undefined;
  return { error: `${err.name}: ${err.message}`.slice(0, 300), code: (err as { code?: unknown }).code, cause };
}

/**
 * Before a provider is saved: its issuer and every endpoint its discovery document names pass the address policy
 * (after DNS), and the document is a provider's, for this issuer. Throws Invalid on the issuer field with a
 * message that names what is wrong; nothing is cached.
 */
export async function verifyProvider(services: Services, issuer: string): Promise<void> {
  const e = tSecurity.sso.errors;
  const policy = providerPolicy(services);
  const refused = (problem: UrlProblem) => Invalid.field('issuer', e.issuerAddress[problem] ?? e.issuer);
  const issuerProblem = await targetProblem(issuer, policy);
  if (issuerProblem) throw refused(issuerProblem);
  const url = new URL(issuer);
  const documentUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let metadata: oidc.ServerMetadata;
  try {
    const config = await oidc.discovery(url, 'settings-check', undefined, undefined, {
      [oidc.customFetch]: providerFetch(services),
      execute: url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
    metadata = config.serverMetadata();
  } catch (err) {
    for (const c of causes(err)) if (c instanceof TargetRefused) throw refused(c.problem);
    services.log.info({ issuer, ...errorSummary(err) }, 'sso: provider refused at save');
    if (isConnectionFailure(err)) throw Invalid.field('issuer', e.providerUnreachable(documentUrl));
    throw Invalid.field('issuer', e.discoveryInvalid(documentUrl));
  }
  const endpointError = (field: string, reason: string) =>
    Invalid.field('issuer', e.endpoint(field, e.endpointReasons[reason] ?? e.endpointReasons.invalid));
  try {
    checkEndpoints(metadata, policy);
  } catch (err) {
    if (err instanceof ProviderMisconfigured) throw endpointError(err.field, err.reason);
    throw err;
  }
  // And where each endpoint's name leads now (a connection checks it again when it is made).
  for (const [field, value] of namedUrls(metadata)) {
    const problem = await targetProblem(String(value), policy);
    if (problem) throw endpointError(field, problem);
  }
}
