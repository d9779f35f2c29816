// The baseline of bench:load: a bare Node `http` server that answers GET /api/sim/all and GET /api/sim/{id}
// with the same JSON as the portal, from the same SQL the ORM issues (read from MikroORM's query log), with `pg`
// and a pool of the same size (10). Per request, like the portal: the session row by the SHA-256 of the cookie
// (joined with its user and companies), then the count and the page (findAndCount), or the SIM and its history.
// Started by bench/load.ts: DATABASE_URL, PORT.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const IDLE_MS = 7 * 24 * 60 * 60 * 1000;

const SESSION_SQL = `select "s0".*, "u1"."id" as "u1__id", "u1"."name" as "u1__name", "u1"."email" as "u1__email", "u1"."company_id" as "u1__company_id", "u1"."is_company_owner" as "u1__is_company_owner", "u1"."is_super_admin" as "u1__is_super_admin", "u1"."created_at" as "u1__created_at", "u1"."last_login_at" as "u1__last_login_at", "c2"."id" as "c2__id", "c2"."name" as "c2__name", "c2"."customer_number" as "c2__customer_number", "c2"."invoice_note" as "c2__invoice_note", "c2"."invoice_interval" as "c2__invoice_interval", "c2"."created_at" as "c2__created_at", "c2"."updated_at" as "c2__updated_at", "a3"."id" as "a3__id", "a3"."name" as "a3__name", "a3"."customer_number" as "a3__customer_number", "a3"."invoice_note" as "a3__invoice_note", "a3"."invoice_interval" as "a3__invoice_interval", "a3"."created_at" as "a3__created_at", "a3"."updated_at" as "a3__updated_at" from "app_session" as "s0" inner join "app_user" as "u1" on "s0"."user_id" = "u1"."id" inner join "company" as "c2" on "u1"."company_id" = "c2"."id" left join "company" as "a3" on "s0"."acting_company_id" = "a3"."id" where "s0"."id" = $1 limit 1`;
const COUNT_SQL = `select count(*) as "count" from "sim" as "s0" inner join "rate_plan" as "r1" on "s0"."rate_plan_id" = "r1"."id" where "s0"."company_id" = $1 and "s0"."status" = 'active'`;
const SIM_COLUMNS = `"s0".*, "r1"."id" as "r1__id", "r1"."code" as "r1__code", "r1"."description" as "r1__description", "r1"."data_limit" as "r1__data_limit", "r1"."call" as "r1__call", "r1"."sms" as "r1__sms", "r1"."roaming" as "r1__roaming", "r1"."is_legacy" as "r1__is_legacy"`;
const LIST_SQL = `select ${SIM_COLUMNS} from "sim" as "s0" inner join "rate_plan" as "r1" on "s0"."rate_plan_id" = "r1"."id" where "s0"."company_id" = $1 and "s0"."status" = 'active' order by "s0"."activated_at" desc, "s0"."id" desc limit $2 offset $3`;
const ONE_SQL = `select ${SIM_COLUMNS} from "sim" as "s0" inner join "rate_plan" as "r1" on "s0"."rate_plan_id" = "r1"."id" where "s0"."id" = $1 and "s0"."company_id" = $2 and "s0"."status" = 'active' limit 1`;
const EVENTS_SQL = `select "s0".*, "b1"."id" as "b1__id", "b1"."name" as "b1__name", "b1"."email" as "b1__email", "b1"."company_id" as "b1__company_id", "b1"."is_company_owner" as "b1__is_company_owner", "b1"."is_super_admin" as "b1__is_super_admin", "b1"."created_at" as "b1__created_at", "b1"."last_login_at" as "b1__last_login_at" from "sim_event" as "s0" left join "app_user" as "b1" on "s0"."by_id" = "b1"."id" where "s0"."sim_id" = $1 order by "s0"."at" desc, "s0"."id" desc`;

type Row = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

async function companyOf(req: IncomingMessage): Promise<number | null> {
  const m = /(?:^|;\s*)sim_session=([A-Za-z0-9_-]{20,100})/.exec(req.headers.cookie ?? '');
  if (!m) return null;
  const { rows } = await pool.query<Row>(SESSION_SQL, [createHash('sha256').update(m[1]!).digest('hex')]);
  const s = rows[0];
  if (!s) return null;
  const now = Date.now();
  if (now - (s.last_seen_at as Date).getTime() > IDLE_MS || (s.expires_at as Date).getTime() <= now) return null;
  return (s.u1__is_super_admin && s.a3__id ? s.a3__id : s.c2__id) as number;
}

const sim = (r: Row) => ({
  id: r.id,
  iccid: r.iccid,
  invoiceLineMark: r.invoice_line_mark,
  invoiceLineNote: r.invoice_line_note,
  status: r.status,
  activatedAt: (r.activated_at as Date).toISOString(),
  ratePlan: {
    id: r.r1__id, code: r.r1__code, description: r.r1__description, dataLimit: r.r1__data_limit,
    call: r.r1__call, sms: r.r1__sms, roaming: r.r1__roaming, isLegacy: r.r1__is_legacy,
  },
});

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  if (req.method !== 'GET') return send(res, 405, { error: 'method' });
  const company = await companyOf(req);
  if (company === null) return send(res, 401, { error: 'Du är inte inloggad.', issues: [] });
  if (url.pathname === '/api/sim/all') {
    const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : null;
    const offset = url.searchParams.has('offset') ? Number(url.searchParams.get('offset')) : 0;
    await pool.query(COUNT_SQL, [company]);
    const { rows } = await pool.query<Row>(LIST_SQL, [company, limit, offset]);
    return send(res, 200, rows.map(sim));
  }
  const one = /^\/api\/sim\/(\d+)$/.exec(url.pathname);
  if (one) {
    const { rows } = await pool.query<Row>(ONE_SQL, [Number(one[1]), company]);
    if (!rows[0]) return send(res, 404, { error: 'SIM-kortet finns inte.', issues: [] });
    const events = await pool.query<Row>(EVENTS_SQL, [rows[0].id]);
    return send(res, 200, {
      ...sim(rows[0]),
      history: events.rows.map((e) => ({ kind: e.kind, at: (e.at as Date).toISOString(), by: (e.b1__name as string | null) ?? null, before: e.before ?? null, after: e.after ?? null })),
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

const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
