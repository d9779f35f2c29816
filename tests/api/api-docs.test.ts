// GET /api/docs over HTTP: the reference page in Swedish for anyone (no session), with its own
// Content-Security-Policy (no host but the portal's, no inline or eval script), and its scripts served by the
// portal itself with a version or a hash in the URL, cached for a year, compressed. GET /api/openapi.json: the same
// document in every encoding, made once, and a repeated request answered 304.
import { describe, expect, it } from 'vitest';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(portal.server.url + path, { headers, redirect: 'manual' });

describe('/api/docs', () => {
  it('is a Swedish page for anyone, under a policy that allows the portal only', async () => {
    const res = await get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<html lang="sv">');
    expect(html).toContain('<title>API-referens – SIM-portalen</title>');
    expect(html).toMatch(/<noscript>[^]*<a href="\/api\/openapi.json">/);
    // No script inline: every <script> names a file of the portal.
    const scripts = [...html.matchAll(/<script([^>]*)>([^]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/^ src="\/api\/docs\/[\w.-]+\.js"$/);
      expect(body).toBe('');
    }

    const csp = res.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['font-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    // No other host anywhere in the policy (no CDN, no font host): only keywords, 'self', data: and blob:.
    for (const values of Object.values(directives)) {
      for (const v of values) expect(v).toMatch(/^('[a-z-]+'|data:|blob:)$/);
    }
    expect(csp).not.toContain('unsafe-eval');
  });

  it('serves the bundle and the start script from the portal: JavaScript, a year immutable, compressed', async () => {
    const html = await (await get('/api/docs')).text();
    const urls = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(urls.some((u) => /^\/api\/docs\/scalar-\d+\.\d+\.\d+\.js$/.test(u))).toBe(true);
    for (const url of urls) {
      const plain = await get(url, { 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const body = await plain.text();
      expect(body.length).toBeGreaterThan(100);
      const br = await fetch(portal.server.url + url, { headers: { 'accept-encoding': 'br' } });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(await br.text()).toBe(body); // fetch decodes it
    }
  }, 60_000);

  it('needs no session, and the page is the same for everyone (nothing of the request in it)', async () => {
    const anna = await portal.server.sessionCookie('anna@demo.test');
    const [visitor, member] = await Promise.all([get('/api/docs'), get('/api/docs', { cookie: anna })]);
    expect(visitor.status).toBe(200);
    expect(member.status).toBe(200);
    expect(await visitor.text()).toBe(await member.text());
  });

  it('serves /api/openapi.json in each encoding as the same document, with Vary, and 304 when the client has it', async () => {
    const plain = await get('/api/openapi.json', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect((JSON.parse(text) as { openapi: string }).openapi).toMatch(/^3\.1\./);
    for (const encoding of ['br', 'gzip']) {
      const res = await get('/api/openapi.json', { 'accept-encoding': encoding });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(await res.text()).toBe(text); // fetch decodes it
      // The client has it: 304, no body. (Cache-Control as a browser revalidates: fetch would add no-cache, which
      // asks for the whole answer.)
      const again = await get('/api/openapi.json', {
        'accept-encoding': encoding,
        'if-none-match': etag!,
        'cache-control': 'max-age=0',
      });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
  });
});
