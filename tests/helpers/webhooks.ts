// Webhooks for the tests that follow deliveries as they arrive: a receiver on 127.0.0.1 (the only address any
// test sends to), and JSON posts with a session cookie to register its endpoint and cause events.
import http from 'node:http';

/** An HTTP server on 127.0.0.1 taking deliveries: each one's body goes to `answer`, whose status it answers. */
export async function webhookReceiver(answer: (body: string) => number) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(answer(Buffer.concat(chunks).toString('utf8'))).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A receiver keeping each delivery's event id, type and arrival (`performance.now()`), answering 204. */
export async function eventReceiver() {
  const got: Array<{ id: string; type: string; at: number }> = [];
  const receiver = await webhookReceiver((body) => {
    const event = JSON.parse(body) as { id: string; type: string };
    got.push({ id: event.id, type: event.type, at: performance.now() });
    return 204;
  });
  return { ...receiver, got };
}

/** POSTs of JSON to the portal at `base` with a session cookie. */
export function poster(base: string, cookie: string) {
  return (p: string, body: unknown) =>
    fetch(base + p, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
}
