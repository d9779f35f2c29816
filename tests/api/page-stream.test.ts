// How a page's HTML reaches the client (server/http/remix.ts writeBody): whole and the same whichever compression the
// client takes, and a client that leaves mid-answer does not stop the server answering the next one.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { DYNAMIC_GZIP_LEVEL } from '#server/http/encoding.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let anna: string;

beforeAll(async () => {
  anna = await portal.server.sessionCookie('anna@demo.test');
});

/** The raw bytes of an answer and its encoding, as sent (fetch would decode them). */
function raw(
  path: string,
  encoding: string,
): Promise<{ status: number; encoding?: string; length?: string; vary?: string; body: Buffer }> {
  const url = new URL(path, portal.server.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { cookie: anna, 'accept-encoding': encoding } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          encoding: res.headers['content-encoding'],
          length: res.headers['content-length'],
          vary: res.headers.vary,
          body: Buffer.concat(parts),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page without its per-response nonce. */
const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""');

describe('a page on the wire', () => {
  it('is the same whole page with gzip, brotli or no compression', async () => {
    const plain = await raw('/sims', 'identity');
    const gzip = await raw('/sims', 'gzip');
    const br = await raw('/sims', 'br');
    expect([plain.status, gzip.status, br.status]).toEqual([200, 200, 200]);
    expect(plain.encoding).toBeUndefined();
    expect(gzip.encoding).toBe('gzip');
    expect(br.encoding).toBe('br');
    const html = plain.body.toString('utf8');
    // The page, then Remix's data stream, closed at the end.
    expect(html).toContain('</html>');
    expect(html).toContain('window.__remixContext.streamController.close();');
    expect(html.length).toBeGreaterThan(5_000);
    expect(withoutNonce(gunzipSync(gzip.body).toString('utf8'))).toBe(withoutNonce(html));
    expect(withoutNonce(brotliDecompressSync(br.body).toString('utf8'))).toBe(withoutNonce(html));
    // Rendered in one turn, the page is compressed in one call (server/http/compress.ts endInOneGo) and sent with its
    // length: as small as the whole page gzipped at once at the server's level, no flush, no stream.
    expect(gzip.body.length).toBeLessThan(gzipSync(html, { level: DYNAMIC_GZIP_LEVEL }).length * 1.1);
    // Each answer says a cache must keep one per encoding.
    for (const answer of [plain, gzip, br]) expect(answer.vary).toMatch(/(^|, *)Accept-Encoding$/);
    expect([plain.length, gzip.length, br.length]).toEqual(
      [plain.body.length, gzip.body.length, br.body.length].map(String),
    );
  });

  it('goes on serving after clients leave in the middle of answers', async () => {
    const url = new URL('/sims', portal.server.url);
    // Ten clients that close their connection as soon as the first bytes arrive.
    await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<void>((resolve) => {
            const req = request(url, { headers: { cookie: anna, 'accept-encoding': 'gzip' } }, (res) => {
              res.once('data', () => {
                req.destroy();
                resolve();
              });
            });
            req.on('error', () => resolve());
            req.end();
          }),
      ),
    );
    const after = await raw('/sims', 'identity');
    expect(after.status).toBe(200);
    expect(after.body.toString('utf8')).toContain('window.__remixContext.streamController.close();');
  });
});
