// Starts the real portal (production build, Express, Remix, MikroORM) on a free port with its own
// temporary data directory and a fresh database, for HTTP and browser tests.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config.js';
import { createSession } from '../../server/auth/sessions.js';
import { User } from '../../server/db/entities.js';
import { startServer, type RunningServer } from '../../server/index.js';
import { createServices } from '../../server/services.js';
import { createLogger } from '../../server/log.js';
import { freshDatabase } from './db.js';
import type { DbTarget } from '../../server/db/orm.js';

export type TestServer = RunningServer & {
  db: DbTarget;
  dataDir: string;
  /** A cookie header value for a new session of the user with this e-mail. */
  sessionCookie: (email: string) => Promise<string>;
  stop: () => Promise<void>;
};

export async function startTestServer(opts: { seed?: boolean; env?: Record<string, string>; db?: DbTarget } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sim-portal-test-'));
  // A given database is shared (a second server instance); otherwise a fresh one, dropped at stop.
  const db = opts.db ? { target: opts.db, drop: async () => {} } : await freshDatabase();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...opts.env });
  const services = await createServices(config, { db: db.target, log: createLogger(config.logLevel) });
  const running = await startServer(config, { services, seed: opts.seed ?? true });
  // APP_URL must name the real port for links in mails; the config was made before the port was known.
  services.config.appUrl = running.url;
  return {
    ...running,
    db: db.target,
    dataDir,
    async sessionCookie(email: string) {
      const em = services.orm.em.fork();
      const user = await em.findOneOrFail(User, { email });
      const raw = await createSession(em, user.id);
      return `sim_session=${raw}`;
    },
    async stop() {
      await running.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
