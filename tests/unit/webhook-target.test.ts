// The target guard of webhooks and identity providers (server/net/target-policy.ts): refusals only, no traffic is
// ever sent here.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { backoffMs } from '#server/webhooks/deliver.ts';
import { signature } from '#server/webhooks/post.ts';
import { addressProblem, guardedLookup, policyFor, targetProblem, urlProblem } from '#server/net/target-policy.ts';

const strict = { allowPrivateTargets: false };
const local = { allowPrivateTargets: true };
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const a = table[host];
  if (!a) throw new Error('ENOTFOUND');
  return a;
};

describe('addressProblem', () => {
  it.each(['127.0.0.1', '127.255.0.9', '::1'])(
    'refuses loopback %s without the flag and lets it through with it',
    (a) => {
      expect(addressProblem(a, strict)).toBe('loopback');
      expect(addressProblem(a, local)).toBeNull();
    },
  );

  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.1',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '224.0.0.1',
    '255.255.255.255',
    // IPv4-translated, local-use NAT64, site-local, Teredo, documentation ranges.
    '::ffff:0:a00:1',
    '::ffff:0:7f00:1',
    '64:ff9b:1::a00:1',
    'fec0::1',
    'fef0::1',
    '2001:0:4136:e378::1',
    '2001:db8::1',
    '100::1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
  ])('refuses %s even with the flag', (a) => {
    expect(addressProblem(a, strict)).not.toBeNull();
    expect(addressProblem(a, local)).not.toBeNull();
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])(
    'lets the public address %s through',
    (a) => {
      expect(addressProblem(a, strict)).toBeNull();
    },
  );
});

describe('urlProblem', () => {
  it('wants https; http only to loopback with the flag', () => {
    expect(urlProblem('https://hooks.example.com/x', strict)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', strict)).toBe('scheme');
    expect(urlProblem('http://127.0.0.1:9000/x', strict)).toBe('scheme');
    expect(urlProblem('http://127.0.0.1:9000/x', local)).toBeNull();
    expect(urlProblem('http://localhost:9000/x', local)).toBeNull();
    expect(urlProblem('http://10.0.0.5/x', local)).toBe('scheme');
    expect(urlProblem('http://hooks.example.com/x', local)).toBe('scheme');
    // Plain http to a public address, with the flag, is refused too.
    expect(urlProblem('http://93.184.215.14/x', local)).toBe('scheme');
    expect(urlProblem('http://[2606:4700::1111]/x', local)).toBe('scheme');
    expect(urlProblem('http://8.8.8.8:8080/x', local)).toBe('scheme');
    expect(urlProblem('http://[::1]:9000/x', local)).toBeNull();
    expect(urlProblem('ftp://hooks.example.com/x', local)).toBe('scheme');
    expect(urlProblem('not a url', strict)).toBe('invalid');
    expect(urlProblem('https://u:p@hooks.example.com/', strict)).toBe('credentials');
  });

  it('refuses literal inside addresses', () => {
    expect(urlProblem('https://127.0.0.1/x', strict)).toBe('loopback');
    expect(urlProblem('https://10.1.2.3/x', strict)).toBe('private');
    expect(urlProblem('https://10.1.2.3/x', local)).toBe('private');
    expect(urlProblem('https://169.254.169.254/latest/meta-data', local)).toBe('private');
    expect(urlProblem('https://[::1]/x', strict)).toBe('loopback');
    expect(urlProblem('https://[::ffff:10.0.0.1]/x', local)).toBe('private');
    expect(urlProblem('https://[fe80::1]/x', local)).toBe('private');
    expect(urlProblem('https://0.0.0.0/x', local)).toBe('private');
    // Other spellings of an address are normalised by the URL parser first.
    expect(urlProblem('https://2130706433/x', strict)).toBe('loopback');
    expect(urlProblem('https://0x7f.1/x', strict)).toBe('loopback');
    expect(urlProblem('https://0xa9fea9fe/x', local)).toBe('private');
  });
});

describe('targetProblem (after DNS)', () => {
  const dns = resolver({
    'rebind.example': ['93.184.215.14', '127.0.0.1'],
    'inside.example': ['10.0.0.7'],
    'meta.example': ['169.254.169.254'],
    'fine.example': ['93.184.215.14'],
  });

  it('refuses a name that resolves to loopback or inside, any of its addresses', async () => {
    expect(await targetProblem('https://localhost/x', strict)).toBe('loopback');
    expect(await targetProblem('https://rebind.example/x', strict, dns)).toBe('loopback');
    expect(await targetProblem('https://inside.example/x', local, dns)).toBe('private');
    expect(await targetProblem('https://meta.example/x', local, dns)).toBe('private');
    expect(await targetProblem('https://nowhere.example/x', strict, dns)).toBe('unresolved');
    expect(await targetProblem('https://fine.example/x', strict, dns)).toBeNull();
  });

  it('holds plain http to loopback at every address, even when localhost resolves elsewhere', async () => {
    const odd = resolver({ localhost: ['93.184.215.14'] });
    expect(await targetProblem('http://localhost:9000/x', local, odd)).toBe('private');
    expect(await targetProblem('https://localhost:9000/x', local, odd)).toBeNull();
    const plain = resolver({ localhost: ['127.0.0.1', '::1'] });
    expect(await targetProblem('http://localhost:9000/x', local, plain)).toBeNull();
    const http = policyFor(new URL('http://localhost/x'), local);
    const look = new Promise<unknown>((resolve, reject) =>
      guardedLookup(http, odd)('localhost', { all: false }, (err: Error | null, address: unknown) =>
        err ? reject(err) : resolve(address),
      ),
    );
    await expect(look).rejects.toThrow(/refused/);
  });

  it('the delivery lookup refuses inside addresses and hands over only checked ones', async () => {
    const look = (host: string, all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        guardedLookup(strict, dns)(host, { all }, (err: Error | null, address: unknown) =>
          err ? reject(err) : resolve(address),
        ),
      );
    await expect(look('meta.example', false)).rejects.toThrow(/refused/);
    await expect(look('rebind.example', true)).rejects.toThrow(/refused/);
    expect(await look('fine.example', false)).toBe('93.184.215.14');
    expect(await look('fine.example', true)).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });
});

describe('delivery timing and signature', () => {
  it('backs off 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, then hourly', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => backoffMs(n, 10_000) / 1000)).toEqual([
      10, 30, 60, 300, 900, 1800, 3600, 3600, 3600,
    ]);
  });

  it('signs "<t>.<body>" with HMAC-SHA256 in hex', () => {
    const header = signature('whsec_k', '{"a":1}', 1_700_000_000_999);
    const v1 = createHmac('sha256', 'whsec_k').update('1700000000.{"a":1}').digest('hex');
    expect(header).toBe(`t=1700000000,v1=${v1}`);
  });
});
