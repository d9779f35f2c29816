// Long: one schema of every environment variable, validated together at start.
// Environment, validated once at start. A bad or missing value stops the server with one line naming the variable.
import { defined } from '#domain/defined.ts';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

export class ConfigError extends Error {}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  // Production unless told otherwise: only `npm run dev` (and the tests) ask for another mode.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// URL')
      .optional(),
  ),
  // Named prepared statements for the hot reads (server/db/prepared.ts); off behind a transaction-mode pooler
  // that cannot keep them (PgBouncer before 1.21, or without max_prepared_statements).
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  DATA_DIR: optionalText,
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: optionalText.pipe(z.string().min(3).optional()),
  SUPPORT_EMAIL: optionalText.pipe(z.email('must be an e-mail address').optional()),
  // The price list the plan form's help points at ("Se prislista för priser."): its word becomes a link to it.
  PRICE_LIST_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // /metrics: served to a bearer of this token, and/or on this port bound to 127.0.0.1 (0: any free port).
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  METRICS_PORT: optionalText.pipe(
    z.string().regex(/^\d+$/, 'must be a port number').transform(Number).pipe(z.number().int().max(65535)).optional(),
  ),
  // How long a request waits for a pooled PostgreSQL connection before it is answered 503 (server/db/orm.ts).
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  // How long one statement of a search may run before PostgreSQL cancels it (a 503 for the user; docs/decisions/021).
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  // Requests per minute per API key, shared by every instance; tests set a small one.
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  // Requests per minute per signed-in user: the REST paths, /api/trpc and the pages; tests and benchmarks raise it.
  API_SESSION_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000_000).default(600),
  // Requests per minute per company: all its keys and signed-in users together, on top of their own budgets.
  COMPANY_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000_000).default(3000),
  // Active (neither revoked nor expired) API keys a company may have at once.
  API_KEYS_MAX_ACTIVE: z.coerce.number().int().min(1).max(10_000).default(20),
  TRUST_PROXY: optionalText.pipe(
    z
      .string()
      .transform((v, c) => parseTrustProxy(v, c))
      .optional(),
  ),
  // Webhooks: loopback targets (tests, a local receiver), the attempt's timeout, the backoff's first
  // step (the steps are 1, 3, 6, 30, 90, 180, 360 times it, then 360 times it again), how long to retry, the poll.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_FOR_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  // The DNS servers that check a single sign-on domain's TXT record (ip or ip:port, comma-separated); the system's
  // when unset. Tests name their own server on loopback.
  SSO_DNS_SERVERS: optionalText.pipe(
    z
      .string()
      .transform((v, c) => parseDnsServers(v, c))
      .optional(),
  ),
  // The key of the companies' single sign-on client secrets (AES-256-GCM): 32 bytes as base64 or hex.
  SSO_SECRET_KEY: optionalText.pipe(
    z
      .string()
      .transform((v, c) => parseSsoKey(v, c))
      .optional(),
  ),
  // How long a request to a company's identity provider (discovery, keys, token) may take.
  SSO_DISCOVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  SSO_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false']).default('false'),
  // Demo data in an empty database: the embedded default seeds it; a PostgreSQL database only when the operator
  // types DEMO_DATA=true (never a production database by accident: the demo logins include a super admin).
  DEMO_DATA: z.enum(['true', 'false']).optional(),
  // Usage (docs/decisions/033): days of raw records kept, months of totals per SIM kept.
  USAGE_RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  USAGE_TOTALS_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).default(36),
});

/** DNS servers as node's Resolver#setServers takes them: `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`. */
function parseDnsServers(value: string, c: z.RefinementCtx): string[] {
  const servers = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const ok = (v: string) => {
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(v);
    const host = m ? m[1] : v;
    const port = m?.[2] ? Number(m[2]) : 53;
    return !!host && isIP(host) !== 0 && port >= 1 && port <= 65535;
  };
  if (!servers.length || !servers.every(ok)) {
    c.addIssue({ code: 'custom', message: 'must be IP addresses (with :port if not 53), comma-separated' });
    return z.NEVER;
  }
  return servers;
}

/** 32 bytes, written as 64 hex digits or as base64 / base64url (43 or 44 characters). */
function parseSsoKey(value: string, c: z.RefinementCtx): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null;
  if (!key || key.length !== 32) {
    c.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)' });
    return z.NEVER;
  }
  return key;
}

/** Express's `trust proxy` value: false (trust none), a number of hops, or names, addresses and CIDRs. */
export type TrustProxy = false | number | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry) || isIP(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || !bits || !/^\d{1,3}$/.test(bits)) return false;
  const version = isIP(address);
  return version !== 0 && Number(bits) <= (version === 4 ? 32 : 128);
}

function parseTrustProxy(value: string, c: z.RefinementCtx): TrustProxy {
  if (value === 'false' || value === 'none') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !validProxyEntry(e));
  // `true` (trust every hop) would let any client choose its own address: name the hops instead.
  if (bad !== undefined || entries.length === 0) {
    c.addIssue({
      code: 'custom',
      message: `must be a number of hops or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDRs (bad entry "${bad ?? value}")`,
    });
    return z.NEVER;
  }
  return entries;
}

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  appUrl: string;
  databaseUrl?: string;
  /** DATABASE_PREPARED_STATEMENTS: the hot reads as named prepared statements on PostgreSQL (default on). */
  preparedStatements: boolean;
  dataDir: string;
  sessionSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail?: string;
  priceListUrl?: string;
  logLevel: string;
  secureCookies: boolean;
  /** Which proxies' X-Forwarded-* headers Express believes (req.ip, req.protocol). */
  trustProxy: TrustProxy;
  /** /metrics for a bearer of this token (else 404 there). */
  metricsToken?: string;
  /** A listener of its own on 127.0.0.1 serving /metrics without a token. */
  metricsPort?: number;
  /** DATABASE_ACQUIRE_TIMEOUT_MS: the wait for a pooled connection before a 503 (default 5 s). */
  acquireTimeoutMs: number;
  /** SEARCH_TIMEOUT_MS: the statement timeout of a search's transaction (default 5 s; server/db/overload.ts). */
  searchTimeoutMs: number;
  /** API_KEY_RATE_LIMIT: requests per minute per API key (default 600). */
  apiKeyRateLimit: number;
  /** API_SESSION_RATE_LIMIT: requests per minute per signed-in user, on every door (default 600). */
  apiSessionRateLimit: number;
  /** COMPANY_RATE_LIMIT: requests per minute per company, its keys and users together (default 3000). */
  companyRateLimit: number;
  /** API_KEYS_MAX_ACTIVE: a company's active API keys at most (default 20). */
  apiKeysMaxActive: number;
  /** SSO_DNS_SERVERS: the resolvers of a single sign-on domain's TXT record; null: the system's. */
  ssoDnsServers: string[] | null;
  /** SESSION_SECRET was not given: one was generated and is kept in DATA_DIR (worth a warning in production). */
  sessionSecretGenerated: boolean;
  /** Webhook delivery (server/webhooks/deliver.ts). */
  webhooks: { allowPrivateTargets: boolean; timeoutMs: number; backoffMs: number; retryForMs: number; pollMs: number };
  /**
   * Single sign-on: the key of the client secrets (SSO_SECRET_KEY; outside production, when unset, one derived from
   * the session secret; null in production without it: no company's sign-on can be saved or used) and the time
   * limit of a request to a provider (SSO_DISCOVERY_TIMEOUT_MS).
   */
  sso: {
    secretKey: Buffer | null;
    secretKeyDerived: boolean;
    timeoutMs: number;
    /** SSO_ALLOW_PRIVATE_TARGETS: providers on loopback may be reached (the tests' provider), as for webhooks. */
    allowPrivateTargets: boolean;
  };
  /** DEMO_DATA: seed the demo data into an empty database at start (default: only the embedded database). */
  demoData: boolean;
  /** USAGE_RAW_RETENTION_DAYS, USAGE_TOTALS_RETENTION_MONTHS: how long usage is kept (default 90 days, 36 months). */
  usage: { rawDays: number; totalsMonths: number };
};

/** Reads and checks the environment. Throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = defined(parsed.error.issues[0], "a refused parse's first issue");
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got "${env[name] ?? ''}")`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  // A fresh machine with no configuration must start: without SESSION_SECRET one is made and kept.
  const sessionSecret = e.SESSION_SECRET ?? keptSecret(dataDir);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    databaseUrl: e.DATABASE_URL,
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'on',
    dataDir,
    sessionSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `SIM-portalen <no-reply@${new URL(appUrl).hostname}>`,
    supportEmail: e.SUPPORT_EMAIL,
    priceListUrl: e.PRICE_LIST_URL,
    logLevel: e.LOG_LEVEL,
    secureCookies: appUrl.startsWith('https://'),
    trustProxy: e.TRUST_PROXY ?? false,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    apiSessionRateLimit: e.API_SESSION_RATE_LIMIT,
    companyRateLimit: e.COMPANY_RATE_LIMIT,
    apiKeysMaxActive: e.API_KEYS_MAX_ACTIVE,
    demoData: e.DEMO_DATA ? e.DEMO_DATA === 'true' : !e.DATABASE_URL,
    usage: { rawDays: e.USAGE_RAW_RETENTION_DAYS, totalsMonths: e.USAGE_TOTALS_RETENTION_MONTHS },
    searchTimeoutMs: e.SEARCH_TIMEOUT_MS,
    acquireTimeoutMs: e.DATABASE_ACQUIRE_TIMEOUT_MS,
    sessionSecretGenerated: !e.SESSION_SECRET,
    ssoDnsServers: e.SSO_DNS_SERVERS ?? null,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      backoffMs: e.WEBHOOK_BACKOFF_MS,
      retryForMs: e.WEBHOOK_RETRY_FOR_MS,
      pollMs: e.WEBHOOK_POLL_MS,
    },
    sso: {
      secretKey:
        e.SSO_SECRET_KEY ??
        (e.NODE_ENV === 'production'
          ? null
          : createHash('sha256').update('sim-portal sso development key\0').update(sessionSecret).digest()),
      secretKeyDerived: !e.SSO_SECRET_KEY && e.NODE_ENV !== 'production',
      timeoutMs: e.SSO_DISCOVERY_TIMEOUT_MS,
      allowPrivateTargets: e.SSO_ALLOW_PRIVATE_TARGETS === 'true',
    },
  };
}

/** A random secret made once and kept in DATA_DIR, so sessions survive restarts. */
function keptSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
