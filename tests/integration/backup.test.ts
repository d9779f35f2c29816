// Backup and restore of the embedded database through the CLI: seed -> backup -> change -> restore -> the seeded
// state is back, the replaced database kept beside it. PostgreSQL has its own tools (pg_dump / pg_restore): the
// CLI refuses there and names them.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Company, Sim, User } from '#server/db/entities.ts';
import { initOrm } from '#server/db/orm.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { needs } from '#tests/helpers/needs.ts';

let dataDir: string;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete e.DATABASE_URL;
  return e;
};

const cli = (extraEnv: Record<string, string>, ...args: string[]) => runCli({ ...env(), ...extraEnv }, args, 90_000);

/** What the database holds, read while no CLI runs (PGlite: one process at a time). */
async function state() {
  const orm = await initOrm({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  try {
    const em = orm.em.fork();
    return {
      companies: (await em.find(Company, {}, { orderBy: { id: 'asc' } })).map((c) => c.name),
      users: (await em.find(User, {}, { orderBy: { id: 'asc' } })).map((u) => u.email),
      marks: (await em.find(Sim, {}, { orderBy: { id: 'asc' } })).map((s) => s.invoiceLineMark),
    };
  } finally {
    await orm.close(true);
  }
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'backup-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('backup and restore on PostgreSQL', () => {
  it('are refused, naming pg_dump and pg_restore', async () => {
    for (const command of ['backup', 'restore']) {
      const r = await cli({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, command, 'x.tar.gz');
      expect(r.code).toBe(1);
      expect(r.err).toContain('pg_dump');
      expect(r.err).toContain('pg_restore');
    }
  });
});

needs(describe, 'PGlite')('backup and restore of the embedded database (PGlite)', { timeout: 300_000 }, () => {
  it('brings the backed-up state back and keeps the replaced database', async () => {
    expect((await cli({}, 'seed')).code).toBe(0);
    const seeded = await state();
    expect(seeded.marks.length).toBeGreaterThan(0);

    const file = path.join(dataDir, 'portal.tar.gz');
    const saved = await cli({}, 'backup', file);
    expect(saved).toMatchObject({ code: 0, out: expect.stringContaining(`into ${file}`) });
    expect(existsSync(file)).toBe(true);
    // Never over an existing file.
    expect(await cli({}, 'backup', file)).toMatchObject({ code: 1, err: expect.stringContaining('exists') });

    // A change after the backup: a new company and user through the CLI, and every SIM's mark.
    const made = await cli({}, 'user:create', '--email', 'efter@backup.se', '--name', 'Efter', '--company', 'Efter AB');
    expect(made.code).toBe(0);
    const orm = await initOrm({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
    await orm.em.fork().nativeUpdate(Sim, {}, { invoiceLineMark: 'Ändrad efter backup' });
    await orm.close(true);
    const changed = await state();
    expect(new Set(changed.marks)).toEqual(new Set(['Ändrad efter backup']));
    expect(changed.users).toContain('efter@backup.se');

    const restored = await cli({}, 'restore', file);
    expect(restored.code).toBe(0);
    expect(restored.out).toContain('kept in');
    expect(await state()).toEqual(seeded);
    // The database it replaced is kept beside it, with the change in it.
    expect(readdirSync(dataDir).filter((f) => f.startsWith('pglite.before-restore-'))).toHaveLength(1);
  });

  it('refuses while a process has the database open', async () => {
    // PGlite keeps postmaster.pid in its folder while it is open (a running portal).
    const pid = path.join(dataDir, 'pglite', 'postmaster.pid');
    writeFileSync(pid, '1\n');
    try {
      const r = await cli({}, 'backup', path.join(dataDir, 'while-open.tar.gz'));
      expect(r).toMatchObject({ code: 1, err: expect.stringContaining('stop the portal first') });
      expect(existsSync(path.join(dataDir, 'while-open.tar.gz'))).toBe(false);
    } finally {
      rmSync(pid);
    }
  });

  it('leaves the database as it was when the file is not a backup', async () => {
    const before = await state();
    const junk = path.join(dataDir, 'junk.tar.gz');
    writeFileSync(junk, 'not a backup');
    const r = await cli({}, 'restore', junk);
    expect(r.code).toBe(1);
    expect(r.err).toContain('nothing changed');
    expect(await state()).toEqual(before);
  });
});
