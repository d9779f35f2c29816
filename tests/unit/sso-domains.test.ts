// The pure rules of a single sign-on domain: the public mail services no company may claim (subdomains too), the
// TXT record that proves a domain, and SSO_DNS_SERVERS' forms.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPublicMailDomain, ssoTxtName, ssoTxtValue } from '#domain/sso/domains.ts';
import { ConfigError, loadConfig } from '#server/config.ts';

const dirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sso-dns-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('public mail domains', () => {
  it('are refused with their subdomains; a company domain that merely ends alike is not', () => {
    for (const d of ['gmail.com', 'GMAIL.com', 'outlook.com', 'hotmail.com', 'yahoo.com', 'icloud.com', 'live.com'])
      expect(isPublicMailDomain(d), d).toBe(true);
    expect(isPublicMailDomain('proton.me')).toBe(true);
    expect(isPublicMailDomain('eu.gmail.com')).toBe(true);
    expect(isPublicMailDomain('notgmail.com')).toBe(false);
    expect(isPublicMailDomain('foretag.se')).toBe(false);
  });

  it('the proof is a TXT record beside the domain, naming the token', () => {
    expect(ssoTxtName('foretag.se')).toBe('_sim-portal.foretag.se');
    expect(ssoTxtValue('abc')).toBe('sim-portal-verification=abc');
  });
});

describe('SSO_DNS_SERVERS', () => {
  it('takes IPv4 and IPv6 addresses with or without a port; unset is the system resolvers', () => {
    const servers = (v?: string) =>
      loadConfig({ DATA_DIR: tmp(), ...(v === undefined ? {} : { SSO_DNS_SERVERS: v }) }).ssoDnsServers;
    expect(servers()).toBeNull();
    expect(servers('127.0.0.1:5353, 10.0.0.2')).toEqual(['127.0.0.1:5353', '10.0.0.2']);
    expect(servers('[::1]:53,2001:db8::1')).toEqual(['[::1]:53', '2001:db8::1']);
  });

  it('refuses a host name or a bad port with a line naming the variable', () => {
    for (const bad of ['dns.example', '127.0.0.1:99999', '127.0.0.1:x', ',']) {
      expect(() => loadConfig({ DATA_DIR: tmp(), SSO_DNS_SERVERS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: tmp(), SSO_DNS_SERVERS: bad })).toThrow(/SSO_DNS_SERVERS/);
    }
  });
});
