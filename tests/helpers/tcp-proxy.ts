// A TCP proxy of the test's own in front of the database, to cut the server off from it (the machine's
// PostgreSQL is never stopped) and let it back in on the same port.
import net from 'node:net';
import { freshDatabase } from './db.ts';
import { startTestServer } from './server.ts';

export function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  // Connections through it now, and the most at once since resetPeak (a test counting what a door opens).
  let open = 0;
  let peak = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        open++;
        peak = Math.max(peak, open);
        client.on('close', () => open--);
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  return {
    listen,
    get port() {
      return port;
    },
    get open() {
      return open;
    },
    get peak() {
      return peak;
    },
    resetPeak() {
      peak = open;
    },
    /** Closes the listener and every connection through it. */
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/**
 * A test server on a fresh PostgreSQL database reached through a tcpProxy of its own, so a test can cut the
 * database off (`proxy.cut()`) and let it back (`proxy.listen()`). `stop` ends the server and drops the database.
 */
export async function serverBehindProxy() {
  const db = await freshDatabase();
  const url = new URL((db.target as { url: string }).url);
  const proxy = tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  await proxy.listen();
  url.port = String(proxy.port);
  const server = await startTestServer({ db: { kind: 'postgres', url: url.toString() } });
  return {
    server,
    proxy,
    async stop() {
      await server.stop();
      await db.drop();
    },
  };
}
