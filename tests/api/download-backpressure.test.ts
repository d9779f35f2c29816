// A download asked for compressed (`gzip, br`, what every browser sends) holds little of its file in the server: the
// compressor sends as it goes instead of taking megabytes before its first byte (server/http/compress.ts). Through the
// list export's door, on a fleet whose CSV (about 5 MB) is smaller than what brotli with its default 4 MB window held
// before sending anything (8 MB): the client reads the first bytes of the answer and goes away, and the server's log
// says how many of the file's batches it had read by then. With the default window the whole file was read and
// exported before a byte reached the client; now about a dozen batches of the hundred are (brotli sends after 0.5 MB).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFleet } from '#bench/fleet.ts';
import { Company } from '#server/db/entities.ts';
import { BATCH_SIZE } from '#server/sims/list-file.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

const SIMS = 50_000;
const ALL_BATCHES = SIMS / BATCH_SIZE;

describe('a compressed download is sent as it is made', () => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer({ logs: true });
    const em = server.services.orm.em.fork();
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    await seedFleet(em, { companyId: demo.id, sims: SIMS, smallCompanies: 0, simsPerSmall: 100 });
    cookie = await server.sessionCookie('anna@demo.test');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** Asks for `path` with this Accept-Encoding, takes the first bytes of the body, then goes away. */
  function firstBytesThenLeave(path: string, acceptEncoding: string): Promise<{ encoding: string; vary: string }> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        `${server.url}${path}`,
        { headers: { cookie, 'accept-encoding': acceptEncoding } },
        (res) => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
          res.on('error', () => {});
          res.once('data', () => {
            req.destroy();
            resolve({
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
              vary: String(res.headers.vary ?? ''),
            });
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
    });
  }

  /** The export's one closing log line after `from`: cancelled (with the batches read) or exported whole. */
  async function outcome(from: number) {
    const ends = () =>
      server.logs.slice(from).filter((l) => l.msg === 'sim list download cancelled' || l.msg === 'sim list exported');
    await expect.poll(() => ends().length, { timeout: 60_000, interval: 50 }).toBe(1);
    const [end] = ends();
    return { msg: end?.msg, batches: Number(end?.batches) };
  }

  it.each([
    ['gzip, br', 'br'],
    ['gzip', 'gzip'],
  ])(
    'the list export as CSV asked for with %s reaches the client before the server has read a third of the file',
    async (acceptEncoding, encoding) => {
      const from = server.logs.length;
      const answer = await firstBytesThenLeave('/api/sim/export?format=csv', acceptEncoding);
      expect(answer).toEqual({ encoding, vary: 'Accept-Encoding' });
      const end = await outcome(from);
      expect(end.msg).toBe('sim list download cancelled');
      expect(end.batches).toBeGreaterThan(0);
      expect(end.batches).toBeLessThan(ALL_BATCHES / 3);
    },
  );
});
