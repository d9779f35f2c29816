// backup and restore of the embedded database (PGlite's folder as a .tar.gz), with the portal stopped; PostgreSQL
// has its own tools (pg_dump / pg_restore, docs/operations.md).
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '#server/config.ts';
import { dbTargetFrom } from '#server/db/orm.ts';
import { CliError } from './common.ts';

/** The embedded database's folder, for backup and restore; PostgreSQL has its own tools. */
function embeddedDataDir(command: string): string {
  const config = loadConfig();
  if (config.databaseUrl)
    throw new CliError(
      `${command} is for the embedded database; with DATABASE_URL use PostgreSQL's tools: pg_dump -Fc -f FILE "$DATABASE_URL" / pg_restore --clean --if-exists -d "$DATABASE_URL" FILE`,
    );
  const target = dbTargetFrom(config);
  if (target.kind !== 'pglite') throw new CliError('no embedded database configured');
  return target.dataDir;
}

/** PGlite keeps postmaster.pid while a process has the folder open (a crash leaves it behind). */
function refuseWhileOpen(dataDir: string): void {
  if (existsSync(path.join(dataDir, 'postmaster.pid')))
    throw new CliError(
      `the database in ${dataDir} is in use (postmaster.pid): stop the portal first (if it is stopped, a crash left the file: start and stop the portal once)`,
    );
}

const kB = (bytes: number) => `${Math.round(bytes / 1024)} kB`;

export async function backup(file: string | undefined): Promise<string> {
  if (!file) throw new CliError('backup needs a file: npm run cli -- backup backup.tar.gz');
  const dataDir = embeddedDataDir('backup');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new CliError(`no database in ${dataDir}`);
  if (existsSync(file)) throw new CliError(`${file} exists: name a new file`);
  refuseWhileOpen(dataDir);
  const db = await PGlite.create(dataDir);
  try {
    const dump = await db.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    // Written whole, then renamed: a backup file is never half a backup.
    writeFileSync(`${file}.partial`, bytes, { mode: 0o600 });
    renameSync(`${file}.partial`, file);
    return `backed up ${dataDir} into ${file} (${kB(bytes.length)})`;
  } finally {
    await db.close();
  }
}

export async function restore(file: string | undefined): Promise<string> {
  if (!file) throw new CliError('restore needs a file: npm run cli -- restore backup.tar.gz');
  const dataDir = embeddedDataDir('restore');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  refuseWhileOpen(dataDir);
  // The current database is moved aside, never deleted; it comes back if the restore fails.
  const kept =
    existsSync(dataDir) && readdirSync(dataDir).length > 0
      ? `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`
      : null;
  if (kept) renameSync(dataDir, kept);
  try {
    const db = await PGlite.create(dataDir, { loadDataDir: new Blob([new Uint8Array(bytes)]) });
    try {
      const r = await db.query<{ n: number }>('select count(*)::int as n from mikro_orm_migrations');
      if (!r.rows[0]) throw new Error('no migrations table');
    } finally {
      await db.close();
    }
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    if (kept) renameSync(kept, dataDir);
    throw new CliError(`${file} is not a backup of this portal's database (${(e as Error).message}); nothing changed`);
  }
  const size = kB(statSync(file).size);
  return `restored ${dataDir} from ${file} (${size})${kept ? `; the database it replaced is kept in ${kept}` : ''}; migrations newer than the backup are applied at the next start`;
}
