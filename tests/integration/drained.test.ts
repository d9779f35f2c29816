// drained() (server/export/workbook.ts), the one wait for a full writable that the page stream, the list export
// and the invoice export use, behind the real compression middleware the portal mounts and a client that reads
// slowly: many waits on one response leave one 'drain' listener behind, not one each (compression passes a
// response's 'drain' listeners on to its zlib stream but not their removal).
import compression from 'compression';
import { randomBytes } from 'node:crypto';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drained } from '#server/files/streams.ts';

const CHUNKS = 400;
const CHUNK = 16 * 1024;
let server: import('node:http').Server;
let url = '';
const waits: number[] = [];
const warnings: string[] = [];
const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);

beforeAll(async () => {
  process.on('warning', onWarning);
  const app = express();
  app.use(compression({ filter: () => true }));
  app.get('/stream', (_req, res) => void stream(res));
  async function stream(res: express.Response) {
    res.setHeader('Content-Type', 'application/octet-stream');
    let n = 0;
    for (let i = 0; i < CHUNKS && !res.destroyed; i++) {
      // Random bytes do not compress: the zlib stream fills as fast as the client falls behind.
      if (!res.write(randomBytes(CHUNK))) {
        n++;
        await drained(res);
      }
    }
    waits.push(n);
    res.end();
  }
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
});
afterAll(async () => {
  process.off('warning', onWarning);
  await new Promise((resolve) => server.close(resolve));
});

/** Reads the whole answer, pausing often, as a phone on a slow network would. */
function slowRead(): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (piece: Buffer) => {
        bytes += piece.length;
        res.pause();
        setTimeout(() => res.resume(), 1);
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

it('waits many times on one compressed response without piling up drain listeners', async () => {
  const bytes = await slowRead();
  expect(bytes).toBeGreaterThan(CHUNKS * CHUNK * 0.9); // gzip of random bytes: about the same size
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThan(20); // the test means something: the writer really waited, many times
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((w) => /MaxListenersExceeded/.test(w))).toEqual([]);
});

it('resolves at once for a writable that is already closed, and when one closes while waited on', async () => {
  const { PassThrough } = await import('node:stream');
  const closed = new PassThrough();
  closed.destroy();
  await new Promise((resolve) => closed.once('close', resolve));
  await drained(closed); // would hang before

  const full = new PassThrough({ highWaterMark: 4 });
  expect(full.write(Buffer.alloc(16))).toBe(false);
  const waiting = drained(full);
  full.destroy();
  await waiting;
  expect(full.destroyed).toBe(true);
});
