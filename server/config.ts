// Environment, validated once at start. A bad or missing value stops the server with one line naming the variable.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export class ConfigError extends Error {}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalText.pipe(
    z.string().regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// URL').optional(),
  ),
  DATA_DIR: optionalText,
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalText.pipe(z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL').optional()),
  MAIL_FROM: optionalText.pipe(z.string().min(3).optional()),
  SUPPORT_EMAIL: optionalText.pipe(z.email('must be an e-mail address').optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  appUrl: string;
  databaseUrl?: string;
  dataDir: string;
  sessionSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail?: string;
  logLevel: string;
  secureCookies: boolean;
};

/** Reads and checks the environment. Throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got "${env[name] ?? ''}")`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  let sessionSecret = e.SESSION_SECRET;
  if (!sessionSecret) {
    if (e.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration: SESSION_SECRET is required when NODE_ENV=production');
    }
    sessionSecret = developmentSecret(dataDir);
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    sessionSecret,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `SIM-portalen <no-reply@${new URL(appUrl).hostname}>`,
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    secureCookies: appUrl.startsWith('https://'),
  };
}

/** In development a random secret is made once and kept in DATA_DIR, so sessions survive restarts. */
function developmentSecret(dataDir: string): string {
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
