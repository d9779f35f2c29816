// What a phase of bench:data (bench/data.ts) gets: the seeded 1,000,000-SIM database, the running built server
// and the sessions, and the one way of putting load on it (`load`: USERS workers, p50/p95 of their requests).
// Each phase (exports, history, overload) is a module of its own that returns its table rows and whether its
// targets were met; bench/data.ts runs them after the list and search scenarios.
import { round, sleep, type ServerProcess } from './lib.ts';

export type Stats = { requests: number; errors: number; p50: number; p95: number; p99: number; max: number };

export type DataPhaseContext = {
  /** The built portal (`node scripts/start.js`), running on the seeded database. */
  server: ServerProcess;
  /** postgres://… of the seeded database (for SQL of a phase's own: more seeding, EXPLAIN). */
  dbUrl: string;
  /** Demo AB: the company of the big fleet. */
  companyId: number;
  /** SIMs seeded for Demo AB. */
  sims: number;
  /** A super admin acting as Demo AB (cookie header value). */
  cookie: string;
  /** The same super admin as staff, not acting (the /admin screens). */
  staffCookie: string;
  users: number;
  seconds: number;
  thinkMs: number;
  smoke: boolean;
  log: (...a: unknown[]) => void;
  /** USERS workers running `one` for `seconds` (at least `minEach` times each), with a person's pause or none. */
  load: (
    one: () => Promise<boolean>,
    opts?: { minEach?: number; seconds?: number; thinkMs?: number; users?: number },
  ) => Promise<Stats>;
};

export type PhaseResult = { name: string; rows: Array<Record<string, unknown>>; pass: boolean; table: string[] };

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export function stats(lat: number[], errors: number): Stats {
  const s = [...lat].sort((a, b) => a - b);
  return {
    requests: lat.length,
    errors,
    p50: s.length ? round(pct(s, 50), 1) : NaN,
    p95: s.length ? round(pct(s, 95), 1) : NaN,
    p99: s.length ? round(pct(s, 99), 1) : NaN,
    max: round(s.at(-1) ?? NaN, 1),
  };
}

/**
 * `users` workers, each running `one` again and again for `seconds` (at least `minEach` times each); `thinkMs`: the
 * pause of a person between two requests (uniform from half to one and a half times it; 0: back to back).
 */
export function loadWith(defaults: { users: number; seconds: number }): DataPhaseContext['load'] {
  return async (one, opts = {}) => {
    const { minEach = 1, seconds = defaults.seconds, thinkMs = 0, users = defaults.users } = opts;
    const lat: number[] = [];
    let errors = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: users }, async (_, u) => {
        // The users start spread over one think time, as people do.
        if (thinkMs > 0) await sleep((u / users) * thinkMs);
        for (let i = 0; i < minEach || performance.now() < until; i++) {
          const t = performance.now();
          const ok = await one().catch(() => false);
          lat.push(performance.now() - t);
          if (!ok) errors++;
          if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
        }
      }),
    );
    return stats(lat, errors);
  };
}
