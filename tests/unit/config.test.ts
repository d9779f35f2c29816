import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';

// loadConfig writes the generated secret into DATA_DIR, so every case gets a directory of its own.
const dirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('config', () => {
  it('has working defaults: production mode, a generated secret kept in DATA_DIR, no proxy trusted', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.nodeEnv).toBe('production');
    expect(c.sessionSecretGenerated).toBe(true);
    expect(c.trustProxy).toBe(false);
    expect(c.port).toBe(3000);
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.secureCookies).toBe(false);
    expect(c.sessionSecret.length).toBeGreaterThanOrEqual(32);
    // The generated secret is kept and reused.
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(c.sessionSecret);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(c.sessionSecret);
  });

  it('derives APP_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '8080' }).appUrl).toBe('http://localhost:8080');
    const c = loadConfig({ DATA_DIR: tmp(), APP_URL: 'https://sim.example.se/' });
    expect(c.appUrl).toBe('https://sim.example.se');
    expect(c.secureCookies).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_URL: 'not a url' }, 'APP_URL'],
    [{ APP_URL: 'ftp://x.se' }, 'APP_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ SUPPORT_EMAIL: 'nope' }, 'SUPPORT_EMAIL'],
    // A link in every plan form: only a web address, never a script.
    [{ PRICE_LIST_URL: 'javascript:alert(1)' }, 'PRICE_LIST_URL'],
    [{ PRICE_LIST_URL: 'prislista.pdf' }, 'PRICE_LIST_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback, 300.1.1.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ METRICS_TOKEN: 'too-short' }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: 'abc' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '-1' }, 'METRICS_PORT'],
  ])('refuses %o naming %s', (env, name) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tmp(), ...env });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('starts in production without SESSION_SECRET: the generated one is kept and reused', () => {
    const dir = tmp();
    const c = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir });
    expect(c.sessionSecretGenerated).toBe(true);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8').trim()).toBe(c.sessionSecret);
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: dir }).sessionSecret).toBe(c.sessionSecret);
  });

  it.each([
    ['', false],
    ['false', false],
    ['none', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['loopback, 10.0.0.0/8 ,192.168.1.7', ['loopback', '10.0.0.0/8', '192.168.1.7']],
    ['uniquelocal,linklocal,fd00::/8,::1', ['uniquelocal', 'linklocal', 'fd00::/8', '::1']],
  ])('reads TRUST_PROXY=%j as Express’s trust proxy %j', (value, expected) => {
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('accepts a full production configuration', () => {
    const c = loadConfig({
      NODE_ENV: 'production',
      PORT: '80',
      APP_URL: 'https://sim.example.se',
      DATABASE_URL: 'postgres://u:p@db:5432/sim',
      SESSION_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'SIM <no-reply@example.se>',
      SUPPORT_EMAIL: 'support@example.se',
      TRUST_PROXY: '1',
      DATA_DIR: tmp(),
    });
    expect(c.sessionSecretGenerated).toBe(false);
    expect(c.trustProxy).toBe(1);
    expect(c.databaseUrl).toBe('postgres://u:p@db:5432/sim');
    expect(c.smtpUrl).toBe('smtp://mail:25');
    expect(c.supportEmail).toBe('support@example.se');
    expect(c.mailFrom).toBe('SIM <no-reply@example.se>');
  });

  it('reads DATABASE_PREPARED_STATEMENTS (on unless off; anything else is refused)', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).preparedStatements).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });

  it('reads METRICS_TOKEN and METRICS_PORT (both off when unset)', () => {
    expect(loadConfig({ DATA_DIR: tmp() })).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: 't'.repeat(16), METRICS_PORT: '13001' })).toMatchObject({
      metricsToken: 't'.repeat(16),
      metricsPort: 13001,
    });
  });

  it('accepts deploy/production.env.example with the ports the systemd unit sets', () => {
    const env = Object.fromEntries(
      readFileSync(path.resolve('deploy/production.env.example'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env).not.toHaveProperty('PORT');
    expect(env).not.toHaveProperty('METRICS_PORT');
    const c = loadConfig({ ...env, DATA_DIR: tmp(), PORT: '3001', METRICS_PORT: '13001' });
    expect(c).toMatchObject({ nodeEnv: 'production', port: 3001, metricsPort: 13001, trustProxy: ['loopback'] });
    expect(c.databaseUrl).toMatch(/^postgres:\/\//);
    expect(c.sessionSecretGenerated).toBe(false);
  });
});
