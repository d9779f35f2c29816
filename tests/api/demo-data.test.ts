// Demo data belongs to the embedded default only (or an operator's explicit DEMO_DATA=true), never to a production
// database: the demo logins include a super admin, and whoever reads that mailbox would get the first login link.
// The server starts as `npm start` does (the seeding left to the configuration) on a fresh, empty database.
import { afterEach, describe, expect, it } from 'vitest';
import { Company, User } from '#server/db/entities.ts';
import { startTestServer, type TestServer } from '#tests/helpers/server.ts';

// A production database named by the operator; the test's own fresh database is what the server really uses.
const OPERATOR_DB = 'postgres://portal@127.0.0.1:1/sim_portal';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function startAsNpmStart(env: Record<string, string>) {
  server = await startTestServer({ seed: 'config', env, logs: true });
  const em = server.services.orm.em.fork();
  return {
    users: (await em.find(User, {}, { orderBy: { email: 'asc' } })).map((u) => u.email),
    customers: await em.count(Company, { isStaff: false }),
    warned: server.logs.some((l) => /no demo data/.test(l.msg) && /user:create/.test(l.msg)),
  };
}

describe('an empty database at start', () => {
  it('named by DATABASE_URL gets no demo data and no demo login; the log names the CLI for the first super admin', async () => {
    const r = await startAsNpmStart({ DATABASE_URL: OPERATOR_DB, NODE_ENV: 'production' });
    expect(r.users).toEqual([]);
    expect(r.customers).toBe(0);
    expect(r.warned).toBe(true);
    // No login link goes anywhere for a demo address: the user does not exist.
    const res = await fetch(`${server!.url}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server!.url },
      body: JSON.stringify({ destination: 'admin@demo.test' }),
    });
    expect(res.status).toBeLessThan(500);
    const em = server!.services.orm.em.fork();
    expect(await em.count(User, {})).toBe(0);
  });

  it('named by DATABASE_URL with the operator typing DEMO_DATA=true is seeded', async () => {
    const r = await startAsNpmStart({ DATABASE_URL: OPERATOR_DB, DEMO_DATA: 'true' });
    expect(r.users).toEqual(['admin@demo.test', 'anna@demo.test', 'ella@demo.test']);
    expect(r.warned).toBe(false);
  });

  it('embedded (no DATABASE_URL) is seeded by default, on addresses that can never receive mail', async () => {
    const r = await startAsNpmStart({});
    expect(r.users.length).toBeGreaterThan(0);
    for (const email of r.users) expect(email).toMatch(/@[a-z0-9.-]+\.test$/);
  });

  it('embedded with DEMO_DATA=false stays empty', async () => {
    const r = await startAsNpmStart({ DEMO_DATA: 'false' });
    expect(r.users).toEqual([]);
  });
});
