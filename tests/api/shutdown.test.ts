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

/** Reads from a raw socket until `done` says the text so far is enough, or the socket ends. */
function readUntil(socket: net.Socket, done: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const finish = (ended: boolean) => {
      socket.off('data', onData);
      resolve({ text, ended });
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (done(text)) finish(false);
    };
    socket.on('data', onData);
    socket.once('close', () => finish(true));
  });
}

describe('a kept-alive connection during the drain (a proxy such as nginx reuses its idle connections)', () => {
  it('answers a request that comes on it with Connection: close instead of closing it under the request', async () => {
    const db = await freshDatabase();
    cleanups.push(db.drop);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-test-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const running = await startServer(config, { services: await createServices(config, { db: db.target }) });
    const port = (running.server.address() as net.AddressInfo).port;
    const connect = () => {
      const s = net.connect(port, '127.0.0.1');
      s.on('error', () => {});
      return s;
    };
    const whole = (text: string) =>
      /\r\n\r\n/.test(text) && /content-length: 0*(\d+)/i.test(text)
        ? text.split('\r\n\r\n', 2)[1]?.length === Number(/content-length: 0*(\d+)/i.exec(text)?.[1])
        : false;
    // A connection that has had its answer and is kept alive, idle, as a proxy's cached upstream connection.
    const idle = connect();
    idle.write('GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const first = await readUntil(idle, whole);
    expect(first.text).toMatch(/^HTTP\/1\.1 200/);
    expect(first.text).toMatch(/connection: keep-alive/i);
    // A request in flight: its body is still coming, so the drain waits for it.
    const slow = connect();
    const slowAnswer = readUntil(slow, whole);
    const slowIn = new Promise((resolve) => running.server.once('request', resolve));
    slow.write(
      'POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4\r\n\r\na=',
    );
    await slowIn;
    const closed = running.close();
    // The listener is closed at once: no new connection.
    await expect.poll(() => running.server.listening).toBe(false);
    // The idle connection is still there: a request on it is answered, with Connection: close, and the connection
    // then ends (before this change it was closed at once, and the request got no answer: nginx's 502).
    const onIdle = readUntil(idle, () => false);
    idle.write('GET /livez HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const second = await onIdle;
    expect(second.text).toMatch(/^HTTP\/1\.1 200/);
    expect(second.text).toMatch(/connection: close/i);
    expect(second.ended).toBe(true);
    // The request in flight gets its answer, and then the drain ends.
    slow.write('bc');
    expect((await slowAnswer).text).toMatch(/^HTTP\/1\.1 \d{3}/);
    await closed;
    slow.destroy();
  });
});
