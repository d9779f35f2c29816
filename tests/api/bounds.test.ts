// Long: one server and the same raw-socket and HTTP helpers serve every bound of every door.
// Every door is bounded: body size on every route (by length and counted), tRPC batch size, NUL bytes and bad
// UTF-8 anywhere in the input, malformed Host headers, and no stack trace or library text in any answer.
import http from 'node:http';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { Sim } from '#server/db/entities.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false });
let anna: string;
let port: number;

beforeAll(async () => {
  anna = await portal.server.sessionCookie('anna@demo.test');
  port = Number(new URL(portal.server.url).port);
});

const TOO_LARGE = 'Förfrågan är för stor (högst 100 kB).';
const BAD_TEXT = 'Förfrågan innehåller ogiltiga tecken (ett nolltecken eller felaktig UTF-8).';
const LEAKS =
  /\n\s+at |node_modules|\/work\/|DriverException|TypeError|SyntaxError|Unexpected token|invalid message|is not valid JSON/i;

type Raw = { status: number; headers: http.IncomingHttpHeaders; text: string; sent: number };

/**
 * One request over a raw socket, so the test controls every header (Host, Content-Length, chunked) and bytes
 * that fetch would refuse to send. `stream` keeps sending chunks until the answer arrives.
 */
function raw(
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: Buffer | string; stream?: boolean } = {},
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host: `localhost:${port}`, ...opts.headers }, agent: false },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, sent }));
        res.on('error', reject);
      },
    );
    // The server may close the connection while a streamed body is still being written.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    if (opts.stream) {
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!answered && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    } else {
      if (opts.body !== undefined) {
        sent = Buffer.byteLength(opts.body);
        req.write(opts.body);
      }
      req.end();
    }
  });
}

const form = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-mode': 'navigate', accept: 'text/html' };
const json = { 'content-type': 'application/json', accept: 'application/json' };

describe('request bodies are bounded on every route', () => {
  const big = 'destination=' + 'a'.repeat(300 * 1024);
  it.each([
    ['/login', form, 'page'],
    ['/auth/login', json, 'json'],
    ['/api/trpc/sim.activate', json, 'json'],
    ['/api/sim', json, 'json'],
    ['/feedback', form, 'page'],
  ] as const)('POST %s with 300 kB answers 413 in Swedish (%s 3)', async (path, headers, kind) => {
    const r = await raw('POST', path, { headers: { ...headers, cookie: anna }, body: big });
    expect(r.status).toBe(413);
    expect(r.text).toContain(TOO_LARGE);
    expect(r.text.length).toBeLessThan(2000); // nothing of the body is echoed
    if (kind === 'json') expect(JSON.parse(r.text)).toEqual({ error: TOO_LARGE, issues: [] });
    else expect(r.headers['content-type']).toContain('text/html');
  });

  it('refuses a declared 300 MB body at once, without reading it', async () => {
    const r = await raw('POST', '/login', {
      headers: { ...form, 'content-length': String(300 * 1024 * 1024) },
      stream: true,
    });
    expect(r.status).toBe(413);
    expect(r.text).toContain(TOO_LARGE);
    expect(r.headers.connection).toBe('close');
  });

  it.each(['/login', '/auth/login', '/api/trpc/sim.activate', '/api/sim'])(
    'counts a chunked body without a length to %s: 413 after at most about a megabyte',
    async (path) => {
      const r = await raw('POST', path, {
        headers: { ...json, cookie: anna, 'transfer-encoding': 'chunked' },
        stream: true,
      });
      expect(r.status).toBe(413);
      expect(r.text).toContain(TOO_LARGE);
      // The server stopped taking the body: what the client could send is the limit, the drain allowance and the
      // socket buffers, not the endless stream it offered.
      expect(r.sent).toBeLessThan(16 * 1024 * 1024);
    },
  );

  it('after a 413 to a body still arriving, drops the rest for a while instead of resetting the connection', async () => {
    // 3 MB of a chunked body (the limit and the drain allowance are 1.1 MB), then half a second without reading,
    // then more of the body. Had the server closed at once with the rest unread, its kernel would have reset the
    // connection: the client's next write fails (EPIPE, ECONNRESET) and an HTTP client drops the 413 it had not
    // parsed yet. Lingering, the server reads and drops what comes, and the client reads the 413 in peace.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    let error: Error | null = null;
    socket.on('error', (e) => (error = e));
    socket.write(
      `POST /api/sim HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nAccept: application/json\r\nCookie: ${anna}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 'a'), Buffer.from('\r\n')]);
    for (let i = 0; i < 192; i++) socket.write(chunk);
    // Deliberate quiet periods, the scenario itself: the client sends on without reading for half a second (time
    // for the server to answer 413 and, were it to, close with the rest unread), and after the next writes a
    // reset would show as an error within 200 ms on loopback; no event marks "no reset" to wait for.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < 8; i++) socket.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(error).toBeNull();
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.resume();
    const text = () => Buffer.concat(received).toString('utf8');
    // The whole 413 has come (its body is the last of it).
    await expect.poll(text).toContain(JSON.stringify({ error: TOO_LARGE, issues: [] }));
    expect(text()).toMatch(/^HTTP\/1\.1 413 /);
    expect(text().toLowerCase()).toContain('connection: close');
    // The server ends the connection itself (its side at once, the whole after at most the lingering time).
    await new Promise((resolve) => (socket.closed ? resolve(null) : socket.once('close', resolve)));
  });

  it('still takes a body just under the limit', async () => {
    const r = await raw('POST', '/auth/login', {
      headers: json,
      body: JSON.stringify({ destination: 'anna@demo.test', pad: 'x'.repeat(90 * 1024) }),
    });
    expect(r.status).toBe(200);
  });

  it('never echoes more of a field than it can hold (the login page’s address)', async () => {
    const r = await raw('POST', '/login', { headers: form, body: 'destination=' + 'b'.repeat(50_000) });
    expect(r.status).toBe(200);
    const value = /id="destination"[^>]*value="([^"]*)"/.exec(r.text)?.[1] ?? /value="(b+)"/.exec(r.text)?.[1];
    expect(value).toBe('b'.repeat(254));
    expect(r.text).not.toContain('b'.repeat(255));
  });

  it('never echoes more of a field than it can hold (a refused activation’s marks)', async () => {
    // A bad ICCID is refused, and the marks come back to be shown again: cut at their maximum (200).
    const body = new URLSearchParams({
      iccid: '123',
      dataLimit: '500',
      invoiceLineMark: 'm'.repeat(50_000),
      invoiceLineNote: 'n'.repeat(50_000),
    });
    const r = await raw('POST', '/add', { headers: { ...form, cookie: anna }, body: body.toString() });
    expect(r.status).toBe(200);
    expect(r.text).toContain('m'.repeat(200));
    expect(r.text).not.toContain('m'.repeat(201));
    expect(r.text).toContain('n'.repeat(200));
    expect(r.text).not.toContain('n'.repeat(201));
  });
});

describe('tRPC batches', () => {
  const calls = (n: number, name: string) => Array.from({ length: n }, () => name).join(',');

  it('refuses more than 10 calls with 400 before any procedure runs', async () => {
    const sim = await portal.server.services.orm.em
      .fork()
      .findOneOrFail(Sim, { status: 'active', company: { name: 'Demo AB' }, ratePlan: { isLegacy: false } });
    // Eleven deactivations of one SIM: had any of them run, the SIM would be inactive.
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i, { id: sim.id }])));
    const r = await raw('POST', `/api/trpc/${calls(11, 'sim.deactivate')}?batch=1`, {
      headers: { ...json, cookie: anna },
      body,
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({ error: 'För många anrop i en och samma förfrågan (högst 10).', issues: [] });
    expect((await portal.server.services.orm.em.fork().findOneOrFail(Sim, sim.id)).status).toBe('active');
  });

  it('answers a batch of 10', async () => {
    const r = await raw('GET', `/api/trpc/${calls(10, 'plans.list')}?batch=1`, { headers: { cookie: anna } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toHaveLength(10);
  });

  it('answers a malformed batch in Swedish, without the library’s text', async () => {
    for (const path of [
      '/api/trpc/sim.list?batch=1&input=xx',
      '/api/trpc/sim.list,sim.list?batch=1&input=[1]',
      '/api/trpc/no.such?batch=1&input={}',
    ]) {
      const r = await raw('GET', path, { headers: { cookie: anna } });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.text).not.toMatch(LEAKS);
      expect(r.text).not.toMatch(/procedure|needs to be|batch call/i);
      const messages = (JSON.parse(r.text) as Array<{ error: { message: string } }>).map((e) => e.error.message);
      expect(messages.every((m) => ['Ogiltiga uppgifter.', 'Det du söker finns inte.'].includes(m))).toBe(true);
    }
    const wrongType = await raw('POST', '/api/trpc/sim.deactivate?batch=1', {
      headers: { cookie: anna, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(wrongType.text).not.toMatch(/Unsupported content-type/);
  });
});

describe('NUL bytes and invalid UTF-8', () => {
  it.each([
    ['GET', '/sims?q=a%00b', {}, undefined],
    ['GET', '/sims?q=%C3%28', {}, undefined],
    ['GET', '/sims.data?q=a%00b', {}, undefined],
    ['GET', '/sims/%00', {}, undefined],
    ['GET', '/sims/%FF', {}, undefined],
    ['GET', '/api/sim/all?q=a%00', {}, undefined],
    ['GET', `/api/trpc/sim.list?batch=1&input=${encodeURIComponent('{"0":{"q":"a\\u0000b"}}')}`, {}, undefined],
    ['POST', '/login', form, 'destination=a%00b%40demo.test'],
    ['POST', '/login', form, 'destination=%E9t%C3'],
    ['POST', '/auth/login', json, '{"destination":"a\\u0000@demo.test"}'],
    ['POST', '/auth/login', json, '{"destination":"a\\ud800@demo.test"}'],
    ['POST', '/auth/login', json, Buffer.from([0x7b, 0x22, 0x64, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
    ['POST', '/api/sim', json, '{"iccid":"8946\\u0000","invoiceLineMark":"x"}'],
    [
      'POST',
      '/feedback',
      { 'content-type': 'multipart/form-data; boundary=B' },
      '--B\r\nContent-Disposition: form-data; name="message"\r\n\r\nhej\u0000\r\n--B--\r\n',
    ],
  ] as const)('%s %s answers 400 in Swedish', async (method, path, headers, body) => {
    const r = await raw(method, path, {
      headers: { cookie: anna, ...headers },
      body: body as string | Buffer | undefined,
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain(BAD_TEXT);
    expect(r.text).not.toMatch(LEAKS);
  });

  it('a browser form gets the refusal as a page, an API caller as { error, issues }', async () => {
    const page = await raw('POST', '/login', { headers: form, body: 'destination=%00' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('<html lang="sv"');
    const api = await raw('GET', '/api/sim/all?q=%00', { headers: { cookie: anna } });
    expect(JSON.parse(api.text)).toEqual({ error: BAD_TEXT, issues: [] });
  });

  it('still takes Swedish letters and escaped text', async () => {
    expect((await raw('GET', '/sims?q=%C3%A5%C3%A4%C3%B6', { headers: { cookie: anna } })).status).toBe(200);
    expect((await raw('GET', '/api/sim/all?q=100%25', { headers: { cookie: anna } })).status).toBe(200);
    expect(
      (
        await raw('POST', '/auth/login', {
          headers: json,
          body: '{"destination":"anna@demo.test","note":"\\\\u0000 är text"}',
        })
      ).status,
    ).toBe(200);
  });
});

describe('the Host header', () => {
  it.each(['evil host', 'a/b', 'x:99999', 'exa mple.se:80', '[::1', 'a@b.se', 'a..b'])(
    'answers 400 for Host %j',
    async (host) => {
      const r = await raw('GET', '/login', { headers: { host } });
      expect(r.status).toBe(400);
      expect(r.text).not.toMatch(LEAKS);
    },
  );

  it.each(['localhost', 'sim.example.se:8443', '127.0.0.1:3000', '[::1]:3000'])('takes Host %j', async (host) => {
    expect((await raw('GET', '/login', { headers: { host } })).status).toBe(200);
  });
});

describe('production mode', () => {
  it('answers an unreadable multipart form with 400, not an error in the action', async () => {
    const r = await raw('POST', '/login', {
      headers: {
        'content-type': 'multipart/form-data; boundary=nope',
        accept: 'text/html',
        'sec-fetch-mode': 'navigate',
      },
      body: 'not multipart at all',
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('Formulärets innehåll gick inte att läsa.');
  });

  it('a failing loader answers the Swedish error page and data without a stack, path or driver message', async () => {
    const conn = portal.server.services.orm.em.getConnection();
    await conn.execute('alter table "sim" rename to "sim_away"');
    try {
      const page = await raw('GET', '/sims', {
        headers: { cookie: anna, accept: 'text/html', 'sec-fetch-mode': 'navigate' },
      });
      expect(page.status).toBe(500);
      expect(page.text).toContain('Något gick fel');
      expect(page.text).not.toMatch(LEAKS);
      expect(page.text).not.toMatch(/sim_away|relation|does not exist|select .* from/i);
      const data = await raw('GET', '/sims.data', { headers: { cookie: anna } });
      expect(data.status).toBe(500);
      expect(data.text).not.toMatch(LEAKS);
      expect(data.text).not.toMatch(/relation|does not exist|select .* from/i);
      const trpc = await raw('GET', '/api/trpc/sim.list?batch=1', { headers: { cookie: anna } });
      expect(trpc.status).toBe(500);
      expect(trpc.text).not.toMatch(/relation|does not exist|select .* from/i);
      expect(trpc.text).toContain('Något gick fel på servern.');
    } finally {
      await conn.execute('alter table "sim_away" rename to "sim"');
    }
  });
});
