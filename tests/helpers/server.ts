// Starts the real portal (production build, Express, Remix, MikroORM) on a free port with its own
// temporary data directory and a fresh database, for HTTP and browser tests.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '#server/config.ts';
import { cookieName } from '#server/auth/sessions.ts';
import { signedInSession, type SignInOptions } from './signed-in.ts';
import { User } from '#server/db/entities.ts';
import { startServer, type RunningServer } from '#server/index.ts';
import { createServices } from '#server/services.ts';
import { createLogger } from '#server/log.ts';
import { freshDatabase } from './db.ts';
import type { DbTarget } from '#server/db/orm.ts';

export type TestServer = RunningServer & {
  db: DbTarget;
  dataDir: string;
  /** The server's log lines (at level info) when started with `logs: true`, else empty. */
  logs: Array<{ level: number; msg: string } & Record<string, unknown>>;
  /** The session cookie's name as this server sets it (with `__Host-` under an https APP_URL). */
  cookieName: string;
  /**
   * A cookie header value for a new session of the user with this e-mail, as right after a passkey sign-in
   * (tests/helpers/signed-in.ts; a super admin may act as a company, `steppedUp: false` for an older session).
   */
  sessionCookie: (email: string, opts?: SignInOptions) => Promise<string>;
  stop: () => Promise<void>;
};

export async function startTestServer(
  /** `seed`: the demo data into the empty database (default true); 'config' leaves it to DEMO_DATA, as `npm start`. */
  opts: { seed?: boolean | 'config'; env?: Record<string, string>; db?: DbTarget; logs?: boolean } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-test-'));
  // A given database is shared (a second server instance); otherwise a fresh one, dropped at stop.
  const db = opts.db ? { target: opts.db, drop: async () => {} } : await freshDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests loop over the REST paths, /api/trpc and the pages with one cookie and one company: only the budget tests
    // (tests/api/rate-limits.test.ts, company-budget.test.ts) meet the user's and the company's budgets.
    API_SESSION_RATE_LIMIT: '100000000',
    // No test asks the world's DNS: an SSO domain's proof goes to a port on loopback that answers nothing, unless
    // the test names its own server (tests/helpers/dns-server.ts).
    SSO_DNS_SERVERS: '127.0.0.1:9',
    COMPANY_RATE_LIMIT: '100000000',
    ...opts.env,
  });
  const logs: TestServer['logs'] = [];
  // What the server noticed, for a test to wait on (e.g. a cancelled download) instead of sleeping.
  const log = opts.logs
    ? pino({ level: 'info', base: undefined }, { write: (line: string) => void logs.push(JSON.parse(line)) })
    : createLogger(config.logLevel);
  const services = await createServices(config, { db: db.target, log });
  const running = await startServer(config, {
    services,
    seed: opts.seed === 'config' ? undefined : (opts.seed ?? true),
  });
  // APP_URL must name the real port for links in mails; the config was made before the port was known.
  services.config.appUrl = running.url;
  return {
    ...running,
    db: db.target,
    dataDir,
    logs,
    cookieName: cookieName(config.secureCookies),
    async sessionCookie(email, opts = {}) {
      const em = services.orm.em.fork();
      const user = await em.findOneOrFail(User, { email });
      const raw = await signedInSession(em, user.id, opts);
      return `${cookieName(config.secureCookies)}=${raw}`;
    },
    async stop() {
      await running.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
