import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../helpers/db.js';

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

function cli(...args: string[]) {
  const r = spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/cli.ts', ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

// Each case spawns the CLI (tsx + a database start) several times: generous time on a busy 2-core machine.
describe('cli', { timeout: 240_000 }, () => {
  it('migrate, then seed twice (idempotent)', () => {
    expect(cli('migrate')).toMatchObject({ code: 0, out: expect.stringMatching(/applied|up to date/) });
    expect(cli('migrate')).toMatchObject({ code: 0, out: 'database is up to date' });
    const first = cli('seed');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/1 companies, 2 users, 12 plans created/);
    expect(cli('seed').out).toMatch(/0 companies, 0 users, 0 plans created \(12 updated\), 0 SIMs/);
  });

  it('user:create creates the company when missing and refuses duplicates and bad input', () => {
    const ok = cli('user:create', '--email', 'Ny@Firma.se', '--name', 'Ny Person', '--company', 'Firma AB', '--customer-number', '555', '--owner');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('created company "Firma AB" (customer number 555)');
    expect(ok.out).toContain('created user ny@firma.se');
    expect(ok.out).toContain('company owner');
    const dup = cli('user:create', '--email', 'ny@firma.se', '--name', 'X', '--company', 'Firma AB');
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('already exists');
    const admin = cli('user:create', '--email', 'boss@firma.se', '--name', 'Boss', '--company', 'Firma AB', '--super-admin');
    expect(admin.out).toMatch(/created user boss@firma.se .* in "Firma AB" as super admin/);
    expect(cli('user:create', '--email', 'not-an-email', '--name', 'X', '--company', 'Y')).toMatchObject({ code: 1, err: expect.stringContaining('--email') });
    expect(cli('user:create', '--email', 'a@b.se', '--company', 'Y')).toMatchObject({ code: 1, err: expect.stringContaining('--name') });
    expect(cli('user:create', '--email', 'a@b.se', '--name', 'A', '--company', 'Y', '--bogus')).toMatchObject({ code: 1, err: expect.stringContaining('bogus') });
  });

  it('plans:import upserts by code and refuses a bad file whole, naming entry and field', () => {
    const good = path.join(dataDir, 'plans.json');
    writeFileSync(good, JSON.stringify([
      { code: 'DATA-500', description: 'Data 500 MB (ny text)', dataLimit: 500, call: false, sms: false, roaming: false, isLegacy: false },
      { code: 'NEW-3000', description: 'Data 3 GB', dataLimit: 3000, call: true, sms: true, roaming: false, isLegacy: false },
    ]));
    expect(cli('plans:import', good)).toMatchObject({ code: 0, out: 'rate plans: 1 created, 1 updated' });
    const bad = path.join(dataDir, 'bad.json');
    writeFileSync(bad, JSON.stringify([
      { code: 'OK-1', description: 'ok', dataLimit: 100, call: false, sms: false, roaming: false, isLegacy: false },
      { code: 'BAD-2', description: 'bad', dataLimit: 'lots', call: false, sms: false, roaming: false, isLegacy: false },
    ]));
    const r = cli('plans:import', bad);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Entry 2, field "dataLimit"/);
    // Refused whole: OK-1 was not stored either, so importing only it creates it.
    writeFileSync(bad, JSON.stringify([{ code: 'OK-1', description: 'ok', dataLimit: 100, call: false, sms: false, roaming: false, isLegacy: false }]));
    expect(cli('plans:import', bad).out).toBe('rate plans: 1 created, 0 updated');
    writeFileSync(bad, '{ not json');
    expect(cli('plans:import', bad)).toMatchObject({ code: 1, err: expect.stringContaining('Cannot read') });
    expect(cli('plans:import')).toMatchObject({ code: 1 });
  });

  it('prints the usage and exits 0 for --help, -h and no command', () => {
    for (const args of [['--help'], ['-h'], []]) {
      const r = cli(...args);
      expect(r, args.join(' ') || '(no command)').toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^Usage: npm run cli -- <command>/);
      expect(r.out).toContain('user:create');
      expect(r.out).not.toContain('Unknown command');
    }
  });

  it('refuses an unknown command with the usage', () => {
    const r = cli('frobnicate');
    expect(r.code).toBe(1);
    expect(r.err).toContain('Unknown command');
    expect(r.err).toContain('user:create');
  });

  it('stops with one clear line on bad configuration', () => {
    const r = spawnSync(path.resolve('node_modules/.bin/tsx'), ['server/cli.ts', 'migrate'], { env: { ...env, PORT: 'x' }, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^Error: Invalid configuration: PORT/);
  });
});
