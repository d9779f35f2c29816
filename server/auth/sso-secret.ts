// The companies' single sign-on client secrets at rest: AES-256-GCM with SSO_SECRET_KEY, a fresh 12-byte IV per
// value, stored as "v1.<iv>.<tag>.<ciphertext>" (base64url). A wrong key or a changed value fails to decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'v1';

export class SsoKeyMissing extends Error {
  constructor() {
    super('SSO_SECRET_KEY is not set: single sign-on client secrets cannot be stored or read');
    this.name = 'SsoKeyMissing';
  }
}

function checkedKey(key: Buffer | null): Buffer {
  if (!key) throw new SsoKeyMissing();
  if (key.length !== 32) throw new Error('SSO_SECRET_KEY must be 32 bytes');
  return key;
}

export function encryptSecret(plain: string, key: Buffer | null): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', checkedKey(key), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [PREFIX, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(stored: string, key: Buffer | null): string {
  const [prefix, iv, tag, data, extra] = stored.split('.');
  if (prefix !== PREFIX || !iv || !tag || data === undefined || extra !== undefined)
    throw new Error('not an encrypted client secret');
  const decipher = createDecipheriv('aes-256-gcm', checkedKey(key), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
