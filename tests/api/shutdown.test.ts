// Graceful shutdown: close() (what SIGTERM runs) stops taking connections, lets the requests in flight
// finish, and only then closes the database. A request whose client has already gone is still in flight: its
// handler must not meet a closed ORM ("driver has already been destroyed").
import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { startServer } from '#server/index.ts';
import { createServices } from '#server/services.ts';
import { freshDatabase } from '#tests/helpers/db.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('shutting down under load', () => {
  it('lets requests whose clients have gone finish before the database closes', async () => {
    const db = await freshDatabase();
    cleanups.push(db.drop);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-test-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(s) });
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const services = await createServices(config, { db: db.target, log });
    const running = await startServer(config, { services, seed: false });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const port = (running.server.address() as net.AddressInfo).port;
      // Requests that reach the database (/readyz asks it), sent whole, then their clients leave at once.
      const n = 20;
      let received = 0;
      // How each handler ended (its status), whether or not its client was still there to read it.
      const answered: number[] = [];
      const allIn = new Promise<void>((resolve) =>
        running.server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
          const end = res.end.bind(res);
          res.end = ((...args: Parameters<typeof end>) => {
            answered.push(res.statusCode);
            return end(...args);
          }) as typeof res.end;
          if (++received === n) resolve();
        }),
      );
      const sockets = Array.from({ length: n }, () => {
        const s = net.connect(port, '127.0.0.1');
        s.on('error', () => {});
        s.write('GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n');
        return s;
      });
      await allIn;
      for (const s of sockets) s.destroy();
      await running.close();
      // Every handler finished before close() resolved, and none met a closed database (/readyz: 503).
      expect(answered).toEqual(Array(n).fill(200));
      // A deliberate quiet period: anything the handlers still had running would fail after this point, and the
      // test shows that nothing does; no event marks "nothing more", so 200 ms for it to surface.
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(lines.join('')).not.toMatch(/destroyed|closed|terminat/i);
    expect(lines.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);
    expect(unhandled).toEqual([]);
  });
});
