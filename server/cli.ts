// Command line: migrate, seed, user:create, plans:import, migration:create, backup, restore, events:prune.
// Each prints what it did and exits non-zero with one clear line on error.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { CLI_ACTOR } from './audit/trail.ts';
import { createCompany, staffCompany } from './companies/companies.ts';
import { companyFields } from '#domain/companies/schemas.ts';
import { ConfigError, loadConfig } from './config.ts';
import { Company } from './db/entities.ts';
import { dbTargetFrom, initOrm, migrate, migrationsPath, type Orm } from './db/orm.ts';
import { seedDemo } from './db/seed.ts';
import {
  AUDIT_EVENT_YEARS,
  pruneEvents,
  retentionFloor,
  SIM_EVENT_YEARS,
  stockholmMidnight,
} from './maintenance/prune-events.ts';
import { CatalogError, parseCatalog, upsertPlans } from './plans/catalog.ts';
import { normalizeEmail } from './companies/email.ts';
import { userFields } from '#domain/companies/user-schemas.ts';
import { createUser, updateUser } from './companies/users.ts';
import { z } from '#domain/zod.ts';

class CliError extends Error {}

const usage = `Usage: npm run cli -- <command>
  migrate                         apply pending migrations
  seed                            add demo data (idempotent)
  user:create --email E --name N --company "Name" [--customer-number C] [--owner]
  user:create --email E --name N --super-admin    (super admins belong to the staff company)
  plans:import FILE.json          upsert rate plans by code
  migration:create NAME           write a migration from the entity changes (development)
  backup FILE                     the embedded database (DATA_DIR/pglite) into FILE (.tar.gz), portal stopped
  restore FILE                    the embedded database from FILE; the current one is kept beside it
                                  (PostgreSQL: pg_dump / pg_restore, see docs/operations.md)
  events:prune [--before YYYY-MM-DD] [--audit-before YYYY-MM-DD] [--archive FILE[.gz]]
                                  delete SIM events and audit rows older than the retention (docs/decisions/020),
                                  in batches, each archived to FILE (JSON Lines) first; safe to run again`;

async function withOrm<T>(fn: (orm: Orm) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const orm = await initOrm(dbTargetFrom(config));
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}

/** The refusal of a service (a taken e-mail or customer number) in the CLI's words, naming what was refused. */
function refusal(e: unknown, words: Record<string, string>): never {
  const err = e as { message?: unknown; issues?: unknown; cause?: { issues?: unknown } } | null;
  const issues = (
    Array.isArray(err?.issues) ? err.issues : Array.isArray(err?.cause?.issues) ? err.cause.issues : []
  ) as Array<{ path?: unknown[] }>;
  const field = String(issues[0]?.path?.[0] ?? '');
  if (field in words) throw new CliError(`${words[field]} (${String(err?.message)})`);
  throw e;
}

// Through the services, as the admin pages: the same rules, and an audit row whose actor is the CLI.
async function userCreate(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      company: { type: 'string' },
      'customer-number': { type: 'string' },
      'super-admin': { type: 'boolean', default: false },
      owner: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const isSuperAdmin = values['super-admin'] ?? false;
  const isCompanyOwner = values.owner ?? false;
  // Super admins belong to the staff company only (docs/decisions/014), never to a customer's.
  if (isSuperAdmin && (values.company !== undefined || values['customer-number'] !== undefined || isCompanyOwner))
    throw new CliError('--super-admin: a super admin belongs to the staff company; leave out --company and --owner');
  // The services' own field rules, reported by the option that broke them.
  const input = z
    .object({
      email: userFields.email,
      name: userFields.name,
      company: isSuperAdmin ? z.undefined() : companyFields.name,
      customerNumber: companyFields.customerNumber.optional(),
    })
    .safeParse({
      email: values.email,
      name: values.name,
      company: values.company,
      customerNumber: values['customer-number'],
    });
  if (!input.success) {
    const issue = input.error.issues[0]!;
    const option = { email: '--email', name: '--name', company: '--company', customerNumber: '--customer-number' }[
      String(issue.path[0])
    ];
    throw new CliError(`${option ?? 'input'}: ${issue.message}`);
  }
  const { email, name, company: companyName, customerNumber } = input.data;
  return withOrm(async (orm) => {
    await migrate(orm);
    return orm.em.fork().transactional(async (em) => {
      let company: { id: number; name: string } | null =
        companyName === undefined
          ? await staffCompany(em)
          : await em.findOne(Company, { name: companyName, isStaff: false });
      let made = '';
      if (!company) {
        const number =
          customerNumber ?? String(100000 + (await em.count(Company, {})) + 1 + Math.floor(Math.random() * 1000));
        company = await createCompany(em, CLI_ACTOR, {
          name: companyName!,
          customerNumber: number,
          invoiceNote: '',
          invoiceInterval: 'monthly',
        }).catch((e) => refusal(e, { customerNumber: `Customer number ${number} is already used` }));
        made = `created company "${companyName}" (customer number ${number}); `;
      }
      const words = { email: `A user with e-mail ${normalizeEmail(email)} already exists` };
      let user = await createUser(em, CLI_ACTOR, { name, email, companyId: company.id }).catch((e) =>
        refusal(e, words),
      );
      // The roles are a change of their own, audited as such (creating a user gives none).
      if (isSuperAdmin || isCompanyOwner) {
        user = await updateUser(em, CLI_ACTOR, {
          id: user.id,
          name: user.name,
          email: user.email,
          isCompanyOwner,
          isSuperAdmin,
        }).catch((e) => refusal(e, words));
      }
      return `${made}created user ${user.email} (id ${user.id}) in "${company.name}"${user.isSuperAdmin ? ' as super admin' : ''}${user.isCompanyOwner ? ' as company owner' : ''}`;
    });
  });
}

async function plansImport(file: string | undefined): Promise<string> {
  if (!file) throw new CliError('plans:import needs a file: npm run cli -- plans:import plans.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  const plans = parseCatalog(json);
  return withOrm(async (orm) => {
    await migrate(orm);
    const r = await upsertPlans(orm.em.fork(), plans);
    return `rate plans: ${r.created} created, ${r.updated} updated`;
  });
}

async function migrationCreate(name: string | undefined): Promise<string> {
  if (!name || !/^[a-zA-Z0-9_]+$/.test(name))
    throw new CliError('migration:create needs a NAME of letters, digits and _');
  const orm = await initOrm({ kind: 'pglite', dataDir: 'memory://' });
  try {
    await migrate(orm);
    const r = await orm.migrator.create(migrationsPath, false, false, name);
    if (!r.fileName) return 'no changes: no migration written';
    const className = path.basename(r.fileName).replace(/\.ts$/, '');
    const index = path.join(migrationsPath, 'index.ts');
    const text = readFileSync(index, 'utf8')
      .replace(/(\nexport const migrationsList)/, `import { ${className} } from './${className}.js';\n$1`)
      .replace(/\n\];\s*$/, `\n  { name: '${className}', class: ${className} },\n];\n`);
    writeFileSync(index, text);
    return `wrote ${r.fileName}`;
  } finally {
    await orm.close(true);
  }
}

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

async function backup(file: string | undefined): Promise<string> {
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

async function restore(file: string | undefined): Promise<string> {
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

/** A cutoff of events:prune: the first day of a month (an invoice period starts there), not inside the retention. */
function pruneCutoff(option: string, value: string | undefined, floor: string, what: string): string {
  if (value === undefined) return floor;
  if (!stockholmMidnight(value) || !value.endsWith('-01'))
    throw new CliError(`${option}: give the first day of a month, YYYY-MM-01 (not "${value}")`);
  if (value > floor)
    throw new CliError(`${option} ${value} is inside the retention of ${what}: the earliest rows kept start ${floor}`);
  return value;
}

async function eventsPrune(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      before: { type: 'string' },
      'audit-before': { type: 'string' },
      archive: { type: 'string' },
    },
    strict: true,
  });
  const simFloor = retentionFloor(SIM_EVENT_YEARS);
  const auditFloor = retentionFloor(AUDIT_EVENT_YEARS);
  const simCutoff = pruneCutoff('--before', values.before, simFloor, `SIM events (${SIM_EVENT_YEARS} years)`);
  const auditCutoff = pruneCutoff(
    values['audit-before'] ? '--audit-before' : '--before',
    values['audit-before'] ?? values.before,
    auditFloor,
    `audit events (${AUDIT_EVENT_YEARS} years)`,
  );
  return withOrm(async (orm) => {
    await migrate(orm);
    const r = await pruneEvents(orm.em.fork(), { simCutoff, auditCutoff, archive: values.archive });
    return [
      `sim_event: deleted ${r.simEvents.deleted} events before ${r.simEvents.cutoff} in ${r.simEvents.batches} batches (kept each SIM's activation and its last event before the cutoff)`,
      `audit_event: deleted ${r.auditEvents.deleted} rows before ${r.auditEvents.cutoff} in ${r.auditEvents.batches} batches`,
      r.archive ? `archived ${r.archived} rows to ${r.archive}` : 'no archive written (--archive FILE keeps the rows)',
    ].join('\n');
  });
}

export async function runCli(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'migrate':
      return withOrm(async (orm) => {
        const applied = await migrate(orm);
        return applied.length ? `applied ${applied.join(', ')}` : 'database is up to date';
      });
    case 'seed':
      return withOrm(async (orm) => {
        await migrate(orm);
        const r = await seedDemo(orm.em.fork());
        return `seeded: ${r.companies} companies, ${r.users} users, ${r.plans.created} plans created (${r.plans.updated} updated), ${r.sims} SIMs`;
      });
    case 'user:create':
      return userCreate(rest);
    case 'plans:import':
      return plansImport(rest[0]);
    case 'migration:create':
      return migrationCreate(rest[0]);
    case 'backup':
      return backup(rest[0]);
    case 'restore':
      return restore(rest[0]);
    case 'events:prune':
      return eventsPrune(rest);
    // Asking for help is not an error: the usage on stdout, exit 0.
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return usage;
    default:
      throw new CliError(`Unknown command "${command}".\n${usage}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('cli.ts')) {
  runCli(process.argv.slice(2)).then(
    (out) => {
      console.log(out);
      process.exit(0);
    },
    (e: unknown) => {
      const known =
        e instanceof CliError ||
        e instanceof ConfigError ||
        e instanceof CatalogError ||
        ((e as Error)?.name === 'TypeError' && String((e as Error).message).includes('Unknown option'));
      console.error(`Error: ${known ? (e as Error).message : ((e as Error)?.message ?? String(e))}`);
      process.exit(1);
    },
  );
}
