// The baseline of bench:load: a bare Node `http` server that answers GET /api/sim/all and GET /api/sim/{id}
// with the same JSON as the portal, from the same SQL (imported from the portal's modules, `?` made `$n`),
// with `pg` and a pool of the same size (10). Per request, like the portal: the session row by the SHA-256 of
// the cookie, then the page of SIMs, or the SIM and its history (both at once); then the listed SIMs' usage this month,
// their tags and how fresh the company's data is (one statement, as the portal), and for a paused SIM who paused it.
// Started by bench/load.ts: DATABASE_URL, PORT.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pausedByFrom, type PausedByRow } from '#server/sims/read.ts';
import {
  companyOf,
  EVENTS_SQL,
  NEWEST_EVENTS,
  LIST_SQL,
  ONE_SQL,
  PAUSED_SQL,
  pool,
  query,
  withUsageAndTags,
} from './load-baseline-db.ts';

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method !== 'GET') return send(res, 405, { error: 'method' });
  const company = await companyOf(req.headers.cookie);
  if (company === null) return send(res, 401, { error: 'Du är inte inloggad.', issues: [] });
  if (url.pathname === '/api/sim/all') {
    const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : null;
    const offset = url.searchParams.has('offset') ? Number(url.searchParams.get('offset')) : 0;
    const { rows } = await query('list', LIST_SQL, [company, limit, offset]);
    return send(res, 200, await withUsageAndTags(company, rows));
  }
  const one = /^\/api\/sim\/(\d+)$/.exec(url.pathname);
  if (one) {
    const id = Number(one[1]);
    const [{ rows }, events] = await Promise.all([
      query('one', ONE_SQL, [id, company]),
      query('history', EVENTS_SQL, [company, id, ...NEWEST_EVENTS]),
    ]);
    const row = rows[0];
    if (!row) return send(res, 404, { error: 'SIM-kortet finns inte.', issues: [] });
    const [[withUsage], pausedBy] = await Promise.all([
      withUsageAndTags(company, [row]),
      row.paused_at === null
        ? null
        : query('paused', PAUSED_SQL, [id, company]).then((r) => pausedByFrom(r.rows[0] as PausedByRow | undefined)),
    ]);
    return send(res, 200, {
      ...withUsage,
      pausedBy,
      history: events.rows.map((e) => ({
        kind: e.kind,
        at: e.at,
        by: (e.by as string | null) ?? null,
        before: e.before ?? null,
        after: e.after ?? null,
      })),
    });
  }
  return send(res, 404, { error: 'not found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) send(res, 500, { error: 'baseline failed' });
    else res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');

const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
