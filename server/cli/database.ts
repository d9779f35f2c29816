// The database's commands: migrate, seed, plans:import and migration:create (development).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { initOrm, migrate, migrationsPath } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { parseCatalog, upsertPlans } from '#server/plans/catalog.ts';
import { CliError, withOrm } from './common.ts';

export async function migrateCommand(): Promise<string> {
  return withOrm(async (orm) => {
    const applied = await migrate(orm);
    return applied.length ? `applied ${applied.join(', ')}` : 'database is up to date';
  });
}

export async function seed(): Promise<string> {
  return withOrm(async (orm) => {
    await migrate(orm);
    const r = await seedDemo(orm.em.fork());
    return `seeded: ${r.companies} companies, ${r.users} users, ${r.plans.created} plans created (${r.plans.updated} updated), ${r.sims} SIMs`;
  });
}

export async function plansImport(file: string | undefined): Promise<string> {
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

export async function migrationCreate(name: string | undefined): Promise<string> {
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
      .replace(/(\nexport const migrationsList)/, `import { ${className} } from './${className}.ts';\n$1`)
      .replace(/\n\];\s*$/, `\n  { name: '${className}', class: ${className} },\n];\n`);
    writeFileSync(index, text);
    return `wrote ${r.fileName}`;
  } finally {
    await orm.close(true);
  }
}
