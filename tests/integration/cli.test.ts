import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { AuditEvent } from '#server/db/entities.ts';
import { dbTargetFrom, initOrm } from '#server/db/orm.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { freshDatabase } from '#tests/helpers/db.ts';

let dataDir: string;
let env: NodeJS.ProcessEnv;
let drop: () => Promise<void>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cli-'));
  const db = await freshDatabase();
  drop = db.drop;
  env = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (db.target.kind === 'postgres') env.DATABASE_URL = db.target.url;
});
afterAll(async () => {
  await drop?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const cliWith = (extraEnv: Record<string, string>, ...args: string[]) => runCli({ ...env, ...extraEnv }, args, 60_000);
const cli = (...args: string[]) => cliWith({}, ...args);

// Each case spawns the CLI (tsx + a database start) several times: generous time on a busy 2-core machine.
describe('cli', { timeout: 240_000 }, () => {
  it('migrate, then seed twice (idempotent)', async () => {
    expect(await cli('migrate')).toMatchObject({ code: 0, out: expect.stringMatching(/applied|up to date/) });
    expect(await cli('migrate')).toMatchObject({ code: 0, out: 'database is up to date' });
    const first = await cli('seed');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/2 companies, 3 users, 12 plans created/);
    expect((await cli('seed')).out).toMatch(/0 companies, 0 users, 0 plans created \(12 updated\), 0 SIMs/);
  });

  it('user:create creates the company when missing and refuses duplicates and bad input', async () => {
    const ok = await cli(
      'user:create',
      '--email',
      'Ny@Firma.se',
      '--name',
      'Ny Person',
      '--company',
      'Firma AB',
      '--customer-number',
      '555',
      '--owner',
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('created company "Firma AB" (customer number 555)');
    expect(ok.out).toContain('created user ny@firma.se');
    expect(ok.out).toContain('company owner');
    const userId = Number(/\(id (\d+)\)/.exec(ok.out)?.[1]);
    // Made through the services: audited like an admin's change, with the CLI as the actor (no person).
    // No CLI runs now, so the test may open the database (PGlite: one process at a time).
    const orm = await initOrm(
      dbTargetFrom(
        loadConfig({
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
        }),
      ),
    );
    try {
      const rows = await orm.em
        .fork()
        .find(AuditEvent, { targetType: { $in: ['User', 'Company'] } }, { orderBy: { id: 'asc' } });
      expect(rows.map((r) => [r.action, r.targetType, r.who, r.after?.by])).toEqual([
        ['createCompany', 'Company', null, 'cli'],
        ['createUser', 'User', null, 'cli'],
        ['updateUser', 'User', null, 'cli'],
      ]);
      expect(rows.slice(1).every((r) => r.targetId === String(userId))).toBe(true);
      expect(rows[2]!.after).toMatchObject({ email: 'ny@firma.se', isCompanyOwner: true, isSuperAdmin: false });
    } finally {
      await orm.close(true);
    }
    const dup = await cli('user:create', '--email', 'ny@firma.se', '--name', 'X', '--company', 'Firma AB');
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('already exists');
    const admin = await cli('user:create', '--email', 'boss@firma.se', '--name', 'Boss', '--super-admin');
    expect(admin.out).toMatch(/created user boss@firma.se .* in "Personal \(superadministratörer\)" as super admin/);
    // A super admin never belongs to a customer company (docs/decisions/014).
    expect(
      await cli('user:create', '--email', 'b2@firma.se', '--name', 'B', '--company', 'Firma AB', '--super-admin'),
    ).toMatchObject({ code: 1, err: expect.stringContaining('staff company') });
    expect(await cli('user:create', '--email', 'not-an-email', '--name', 'X', '--company', 'Y')).toMatchObject({
      code: 1,
      err: expect.stringContaining('--email'),
    });
    expect(await cli('user:create', '--email', 'a@b.se', '--company', 'Y')).toMatchObject({
      code: 1,
      err: expect.stringContaining('--name'),
    });
    expect(await cli('user:create', '--email', 'a@b.se', '--name', 'A', '--company', 'Y', '--bogus')).toMatchObject({
      code: 1,
      err: expect.stringContaining('bogus'),
    });
  });

  it('plans:import upserts by code and refuses a bad file whole, naming entry and field', async () => {
    const good = path.join(dataDir, 'plans.json');
    writeFileSync(
      good,
      JSON.stringify([
        {
          code: 'DATA-500',
          description: 'Data 500 MB (ny text)',
          dataLimit: 500,
          call: false,
          sms: false,
          roaming: false,
          isLegacy: false,
        },
        {
          code: 'NEW-3000',
          description: 'Data 3 GB',
          dataLimit: 3000,
          call: true,
          sms: true,
          roaming: false,
          isLegacy: false,
        },
      ]),
    );
    expect(await cli('plans:import', good)).toMatchObject({ code: 0, out: 'rate plans: 1 created, 1 updated' });
    const bad = path.join(dataDir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        { code: 'OK-1', description: 'ok', dataLimit: 100, call: false, sms: false, roaming: false, isLegacy: false },
        {
          code: 'BAD-2',
          description: 'bad',
          dataLimit: 'lots',
          call: false,
          sms: false,
          roaming: false,
          isLegacy: false,
        },
      ]),
    );
    const r = await cli('plans:import', bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Entry 2, field "dataLimit"/);
    // Refused whole: OK-1 was not stored either, so importing only it creates it.
    writeFileSync(
      bad,
      JSON.stringify([
        { code: 'OK-1', description: 'ok', dataLimit: 100, call: false, sms: false, roaming: false, isLegacy: false },
      ]),
    );
    expect((await cli('plans:import', bad)).out).toBe('rate plans: 1 created, 0 updated');
    writeFileSync(bad, '{ not json');
    expect(await cli('plans:import', bad)).toMatchObject({ code: 1, err: expect.stringContaining('Cannot read') });
    expect(await cli('plans:import')).toMatchObject({ code: 1 });
  });

  it('prints the usage and exits 0 for --help, -h and no command', async () => {
    for (const args of [['--help'], ['-h'], []]) {
      const r = await cli(...args);
      expect(r, args.join(' ') || '(no command)').toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^Usage: npm run cli -- <command>/);
      expect(r.out).toContain('user:create');
      expect(r.out).not.toContain('Unknown command');
    }
  });

  it('refuses an unknown command with the usage', async () => {
    const r = await cli('frobnicate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('Unknown command');
    expect(r.err).toContain('user:create');
  });

  it('stops with one clear line on bad configuration', async () => {
    const r = await cliWith({ PORT: 'x' }, 'migrate');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^Error: Invalid configuration: PORT/);
  });
});
