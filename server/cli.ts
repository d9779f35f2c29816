// Command line: migrate, seed, user:create, plans:import, migration:create.
// Each prints what it did and exits non-zero with one clear line on error.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.js';
import { Company, User } from './db/entities.js';
import { dbTargetFrom, initOrm, migrate, migrationsPath, type Orm } from './db/orm.js';
import { seedDemo } from './db/seed.js';
import { CatalogError, parseCatalog, upsertPlans } from './plans/catalog.js';
import { normalizeEmail } from './users/normalize.js';

class CliError extends Error {}

const usage = `Usage: npm run cli -- <command>
  migrate                         apply pending migrations
  seed                            add demo data (idempotent)
  user:create --email E --name N --company "Name" [--customer-number C] [--super-admin] [--owner]
  plans:import FILE.json          upsert rate plans by code
  migration:create NAME           write a migration from the entity changes (development)`;

async function withOrm<T>(fn: (orm: Orm) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const orm = await initOrm(dbTargetFrom(config));
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}

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
  const input = z
    .object({
      email: z.email('--email must be an e-mail address'),
      name: z.string('--name is required').trim().min(1, '--name is required'),
      company: z.string('--company is required').trim().min(1, '--company is required'),
      customerNumber: z.string().trim().min(1).optional(),
    })
    .safeParse({ email: values.email?.trim(), name: values.name, company: values.company, customerNumber: values['customer-number'] });
  if (!input.success) throw new CliError(input.error.issues[0]!.message);
  const { email, name, company: companyName, customerNumber } = input.data;
  return withOrm(async (orm) => {
    await migrate(orm);
    return orm.em.fork().transactional(async (em) => {
      const normalized = normalizeEmail(email);
      if (await em.findOne(User, { email: normalized })) throw new CliError(`A user with e-mail ${normalized} already exists`);
      let company = await em.findOne(Company, { name: companyName });
      let made = '';
      if (!company) {
        const number = customerNumber ?? String(100000 + (await em.count(Company, {})) + 1 + Math.floor(Math.random() * 1000));
        if (await em.findOne(Company, { customerNumber: number })) throw new CliError(`Customer number ${number} is already used`);
        company = em.create(Company, { name: companyName, customerNumber: number, invoiceNote: '', invoiceInterval: 'monthly' });
        made = `created company "${companyName}" (customer number ${number}); `;
      }
      const user = em.create(User, {
        email: normalized, name, company, isSuperAdmin: values['super-admin'] ?? false, isCompanyOwner: values.owner ?? false,
      });
      await em.flush();
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
  if (!name || !/^[a-zA-Z0-9_]+$/.test(name)) throw new CliError('migration:create needs a NAME of letters, digits and _');
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
      const known = e instanceof CliError || e instanceof ConfigError || e instanceof CatalogError || (e as Error)?.name === 'TypeError' && String((e as Error).message).includes('Unknown option');
      console.error(`Error: ${known ? (e as Error).message : (e as Error)?.message ?? String(e)}`);
      process.exit(1);
    },
  );
}
