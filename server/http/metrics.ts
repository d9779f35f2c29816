// Prometheus metrics (prom-client), for /metrics: HTTP requests by route pattern and status, open event streams,
// the database pool, the webhook outbox's depth, and Node's own (memory, CPU, event loop), beside the counters the
// services keep (server/metrics.ts: webhook failures, bulk runs, login links sent and refused).
// Never public: /metrics answers only with METRICS_TOKEN as a bearer token (else the same 404 as any unknown
// path), or on METRICS_PORT, a listener of its own bound to 127.0.0.1 (server/index.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import client from 'prom-client';
import { pgPoolOf, type Orm } from '#server/db/orm.ts';
import { shared } from '#server/metrics.ts';

let defaultsStarted = false;

const PARAM = /^(:.+|\{.+\})$/;

/**
 * A route pattern: its segments, each a literal (kept lower-cased), a parameter (`:id`, `{id}`: null) or a
 * trailing splat (`*`).
 */
type Pattern = { label: string; segments: Array<string | null> };

function pattern(label: string): Pattern {
  const segments = label.split('/').filter(Boolean);
  return { label, segments: segments.map((s) => (PARAM.test(s) ? null : s.toLowerCase())) };
}

/** How well a path (lower-cased segments) fits a pattern (higher: more literal segments, then parameters; a splat least), or -1. */
function fit(p: Pattern, parts: string[]): number {
  let score = 0;
  for (let i = 0; i < p.segments.length; i++) {
    const s = p.segments[i];
    if (s === '*') return score; // the rest, whatever it is (also nothing)
    const part = parts[i];
    if (part === undefined) return -1;
    if (s === null) score += 2;
    else if (s === part) score += 3;
    else return -1;
  }
  return parts.length === p.segments.length ? score + 1 : -1;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type RouteSources = {
  /** The REST door's paths as in the OpenAPI document (`/sim/{id}`), served under /api. */
  restPaths: string[];
  /** Remix's route paths, whole (`sims/:id`, `*`); empty in development (the pages are then labelled `page`). */
  pagePaths: string[];
  /** File names at the top of build/client, served as they are. */
  staticFiles: string[];
};

/**
 * The label set is bounded: a path becomes the pattern of the route that serves it (never the raw URL with its
 * ids), a path no route knows becomes `unmatched`.
 */
export function routeLabeller(sources: RouteSources): (path: string) => string {
  const fixed = ['/healthz', '/livez', '/readyz', '/metrics', '/favicon.ico', '/api/sse', '/api/openapi.json'];
  const patterns = [
    ...fixed.map(pattern),
    pattern('/api/trpc/*'),
    pattern('/assets/*'),
    ...sources.restPaths.map((p) => pattern(`/api${p}`)),
    ...sources.pagePaths.map((p) => pattern(`/${p}`)),
    ...sources.staticFiles.map((f) => pattern(`/${f}`)),
  ];
  const pages = sources.pagePaths.length > 0;
  // Looked up by the first segment (each request is labelled: only the patterns that can fit are tried).
  const anyFirst = patterns.filter((p) => p.segments.length === 0 || p.segments[0] === null || p.segments[0] === '*');
  const byFirst = new Map<string, Pattern[]>();
  for (const p of patterns) {
    const first = p.segments[0];
    if (typeof first !== 'string' || first === '*') continue;
    const list = byFirst.get(first) ?? [...anyFirst];
    list.push(p);
    byFirst.set(first, list);
  }
  return (path) => {
    let data = '';
    // Remix's loader fetches: /sims.data, /sims/12.data, and /_root.data for the home page.
    if (path === '/_root.data') return path;
    if (path.endsWith('.data')) {
      path = path.slice(0, -5);
      data = '.data';
    }
    const parts = path.toLowerCase().split('/').filter(Boolean);
    let best: Pattern | null = null;
    let bestScore = -1;
    for (const p of byFirst.get(parts[0] ?? '') ?? anyFirst) {
      const score = fit(p, parts);
      if (score > bestScore) {
        best = p;
        bestScore = score;
      }
    }
    if (best) return best.label + data;
    return pages ? 'unmatched' : 'page';
  };
}

export type Metrics = {
  /** Counts one answered request. */
  observe: (method: string, path: string, status: number, seconds: number) => void;
  /** The text exposition (and its content type). */
  scrape: () => Promise<{ contentType: string; body: string }>;
  /** Whether an Authorization header carries METRICS_TOKEN (false when no token is configured). */
  authorized: (authorization: string | undefined) => boolean;
};

const digest = (s: string) => createHash('sha256').update(s).digest();

export function createMetrics(opts: {
  orm: Orm;
  streams: { count: () => number };
  token?: string;
  routes: () => (path: string) => string;
}): Metrics {
  if (!defaultsStarted) {
    defaultsStarted = true;
    client.collectDefaultMetrics({ register: shared, prefix: 'sim_portal_' });
  }
  const registry = new client.Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new client.Counter({
    name: 'sim_portal_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'sim_portal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to its last byte), by method, route pattern and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new client.Gauge({
    name: 'sim_portal_event_streams_open',
    help: 'Event streams (/api/sse) open on this instance',
    registers: [registry],
    collect() {
      this.set(opts.streams.count());
    },
  });
  for (const [name, help, key] of [
    ['total', 'Connections in the database pool', 'totalCount'],
    ['idle', 'Idle connections in the database pool', 'idleCount'],
    ['waiting', 'Queries waiting for a pooled connection', 'waitingCount'],
  ] as const) {
    new client.Gauge({
      name: `sim_portal_db_pool_${name}`,
      help: `${help} (PostgreSQL; absent on PGlite)`,
      registers: [registry],
      async collect() {
        const p = await pgPoolOf(opts.orm).catch(() => null);
        if (p) this.set(p[key]);
      },
    });
  }
  // The outbox's depth, for every company and every instance alike: one count at scrape time, on the partial
  // index of pending deliveries (webhook_delivery_due_index).
  new client.Gauge({
    name: 'sim_portal_webhook_outbox_pending',
    help: 'Webhook deliveries pending in the database (queued or waiting for a retry), all instances',
    registers: [registry],
    async collect() {
      const rows = await opts.orm.em
        .fork()
        .execute<Array<{ n: number | string }>>(`select count(*) as n from webhook_delivery where status = 'pending'`)
        .catch(() => null);
      if (rows?.[0]) this.set(Number(rows[0].n));
    },
  });
  const token = opts.token ? digest(opts.token) : null;
  let label: ((path: string) => string) | null = null;
  return {
    observe(method, path, status, seconds) {
      label ??= opts.routes();
      const labels = { method: METHODS.has(method) ? method : 'OTHER', route: label(path), status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    async scrape() {
      const merged = client.Registry.merge([shared, registry]);
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
    authorized(authorization) {
      if (!token || !authorization?.startsWith('Bearer ')) return false;
      // Compared as digests of equal length, in constant time.
      return timingSafeEqual(digest(authorization.slice('Bearer '.length).trim()), token);
    },
  };
}
