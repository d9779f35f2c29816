// The pure parts of single sign-on: the client secret's encryption at rest, SSO_SECRET_KEY's forms, the issuer
// and domain rules of the settings, and when the provider's MFA counts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '#server/config.ts';
import { decryptSecret, encryptSecret, SsoKeyMissing } from '#server/auth/sso-secret.ts';
import { mfaSatisfied } from '#server/auth/sso.ts';
import { issuerAllowed, splitDomains, ssoSaveInput } from '#domain/sso/schemas.ts';

const dirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sso-cfg-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the client secret at rest', () => {
  const key = randomBytes(32);

  it('round-trips, with a fresh IV each time, and the stored text does not contain the secret', () => {
    const a = encryptSecret('s3cret-value', key);
    const b = encryptSecret('s3cret-value', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret-value');
    expect(a.startsWith('v1.')).toBe(true);
    expect(decryptSecret(a, key)).toBe('s3cret-value');
    expect(decryptSecret(b, key)).toBe('s3cret-value');
  });

  it('refuses another key and a changed ciphertext (GCM authenticates it)', () => {
    const stored = encryptSecret('s3cret-value', key);
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow();
    const [v, iv, tag, data] = stored.split('.') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString('base64url')].join('.'), key)).toThrow();
    expect(() => decryptSecret('plain text', key)).toThrow();
  });

  it('without a key nothing is stored or read', () => {
    expect(() => encryptSecret('x', null)).toThrow(SsoKeyMissing);
    expect(() => decryptSecret(encryptSecret('x', key), null)).toThrow(SsoKeyMissing);
  });
});

describe('SSO_SECRET_KEY and SSO_DISCOVERY_TIMEOUT_MS', () => {
  const hex = 'ab'.repeat(32);

  it('takes 32 bytes as hex or base64', () => {
    expect(loadConfig({ DATA_DIR: tmp(), SSO_SECRET_KEY: hex }).sso.secretKey).toEqual(Buffer.from(hex, 'hex'));
    const b64 = randomBytes(32).toString('base64');
    expect(loadConfig({ DATA_DIR: tmp(), SSO_SECRET_KEY: b64 }).sso.secretKey).toEqual(Buffer.from(b64, 'base64'));
    expect(loadConfig({ DATA_DIR: tmp() }).sso.timeoutMs).toBe(5000);
  });

  it('refuses a short or malformed key with a line naming the variable', () => {
    for (const bad of ['abc', 'ab'.repeat(16), randomBytes(16).toString('base64')]) {
      expect(() => loadConfig({ DATA_DIR: tmp(), SSO_SECRET_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: tmp(), SSO_SECRET_KEY: bad })).toThrow(/SSO_SECRET_KEY/);
    }
  });

  it('production has no key unless given; development and tests derive a stable one', () => {
    const prod = loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' });
    expect(prod.sso.secretKey).toBeNull();
    const dir = tmp();
    const dev = loadConfig({ DATA_DIR: dir, NODE_ENV: 'test' });
    expect(dev.sso.secretKey).toHaveLength(32);
    expect(dev.sso.secretKeyDerived).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'test' }).sso.secretKey).toEqual(dev.sso.secretKey);
  });
});

describe('the settings rules', () => {
  it('an issuer is https, or http only to the own machine', () => {
    expect(issuerAllowed('https://login.microsoftonline.com/tenant/v2.0')).toBe(true);
    expect(issuerAllowed('http://127.0.0.1:4000')).toBe(true);
    expect(issuerAllowed('http://localhost:4000')).toBe(true);
    expect(issuerAllowed('http://login.example.com')).toBe(false);
    expect(issuerAllowed('ftp://login.example.com')).toBe(false);
    expect(issuerAllowed('https://user:pw@login.example.com')).toBe(false);
    expect(issuerAllowed('https://login.example.com/?x=1')).toBe(false);
    expect(issuerAllowed('not a url')).toBe(false);
  });

  it('domains: one per line or comma-separated, lower-cased, once each; a bad one named', () => {
    expect(splitDomains('Foretag.se, @foretag.se\nWWW.foretag.se;  ')).toEqual(['foretag.se', 'www.foretag.se']);
    const base = { issuer: 'https://x.example', clientId: 'c', allowEmailLink: true, createUsers: false, mfaClaim: '' };
    expect(ssoSaveInput.safeParse({ ...base, domains: ['foretag.se'] }).success).toBe(true);
    const bad = ssoSaveInput.safeParse({ ...base, domains: ['foretag.se', 'inte_en.domän'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('inte_en.domän');
    expect(ssoSaveInput.safeParse({ ...base, domains: [] }).success).toBe(false);
    expect(ssoSaveInput.parse({ ...base, domains: ['a.se'] }).mfaClaim).toBeNull();
  });

  it('the provider MFA counts when amr contains the value or acr equals it, and only when one is named', () => {
    expect(mfaSatisfied({ amr: ['pwd', 'mfa'] }, 'mfa')).toBe(true);
    expect(mfaSatisfied({ acr: 'urn:mfa' }, 'urn:mfa')).toBe(true);
    expect(mfaSatisfied({ amr: ['pwd'], acr: 'basic' }, 'mfa')).toBe(false);
    expect(mfaSatisfied({ amr: 'mfa' }, 'mfa')).toBe(false);
    expect(mfaSatisfied({ amr: ['mfa'] }, null)).toBe(false);
  });
});
