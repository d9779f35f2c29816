// The fetch of the identity providers' connections (server/net/guarded-fetch.ts): refused before connecting by the
// address policy (literal addresses at once, names at the connection's own lookup, through a resolver the test
// controls), and bounded. Traffic only to a listener on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, TargetRefused } from '#server/net/guarded-fetch.ts';

const strict = { allowPrivateTargets: false };
const local = { allowPrivateTargets: true };
const resolver = (table: Record<string, string[]>) => async (host: string) => {
  const a = table[host];
  if (!a) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return a;
};

let server: http.Server;
let base = '';
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body}`);
      if (req.url === '/big') res.end('x'.repeat(5000));
      else if (req.url === '/hang') return;
      else if (req.url === '/moved') res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
      else res.writeHead(200, { 'content-type': 'application/json', 'x-two': ['a', 'b'] }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('guardedFetch', () => {
  it('refuses before connecting: literal inside addresses, loopback without the flag, names that resolve inside', async () => {
    const refused: TargetRefused[] = [];
    const dns = resolver({
      'inside.example': ['10.1.2.3'],
      'meta.example': ['169.254.169.254'],
      localhost: ['127.0.0.1'],
    });
    const f = guardedFetch({ policy: strict, timeoutMs: 1000, resolve: dns, onRefused: (r) => void refused.push(r) });
    const before = received.length;
    for (const [url, problem] of [
      ['https://10.0.0.1/token', 'private'],
      ['https://169.254.169.254/latest', 'private'],
      [`${base}/x`, 'scheme'],
      [`https://127.0.0.1:${new URL(base).port}/x`, 'loopback'],
      ['https://inside.example/token', 'private'],
      ['https://meta.example/jwks', 'private'],
      [`https://localhost:${new URL(base).port}/x`, 'loopback'],
      ['ftp://example.com/x', 'scheme'],
    ] as const) {
      const err = await f(url, { method: 'POST', body: new URLSearchParams({ client_secret: 's' }) }).catch(
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(TargetRefused);
      expect((err as TargetRefused).problem, url).toBe(problem);
    }
    expect(refused).toHaveLength(8);
    expect(received.length).toBe(before);
  });

  it('with the flag: plain http to loopback only, never to a name resolving elsewhere', async () => {
    const f = guardedFetch({ policy: local, timeoutMs: 1000, resolve: resolver({ localhost: ['10.0.0.9'] }) });
    const err = await f(`http://localhost:${new URL(base).port}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetRefused);
  });

  it('answers a Response: status, headers, body; a POST body sent; redirects not followed', async () => {
    const f = guardedFetch({ policy: local, timeoutMs: 2000 });
    const res = await f(`${base}/token`, { method: 'POST', body: new URLSearchParams({ code: 'abc' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-two')).toBe('a, b');
    expect(await res.json()).toEqual({ ok: true });
    expect(received.at(-1)).toBe('POST /token code=abc');
    const moved = await f(`${base}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('http://10.0.0.1/');
  });

  it('is bounded: an answer over maxBytes, and a request over its time limit, fail', async () => {
    const small = guardedFetch({ policy: local, timeoutMs: 2000, maxBytes: 1000 });
    await expect(small(`${base}/big`)).rejects.toMatchObject({ code: 'ETOOLARGE' });
    const quick = guardedFetch({ policy: local, timeoutMs: 200 });
    const started = Date.now();
    await expect(quick(`${base}/hang`)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
