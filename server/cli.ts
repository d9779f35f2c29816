// Command line: migrate, seed, user:create, plans:import, migration:create, backup, restore, events:prune,
// usage:import.
// Each prints what it did and exits non-zero with one clear line on error. The commands live in server/cli/,
// one file per group; this file is the entry (`npm run cli -- <command>`) and dispatches to them.
import { ConfigError } from './config.ts';
import { CatalogError } from './plans/catalog.ts';
import { backup, restore } from './cli/backup.ts';
import { CliError } from './cli/common.ts';
import { migrateCommand, migrationCreate, plansImport, seed } from './cli/database.ts';
import { eventsPrune } from './cli/prune.ts';
import { usageImport } from './cli/usage.ts';
import { usageSimulate } from './cli/usage-simulate.ts';
import { userCreate } from './cli/users.ts';

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
                                  in batches, each archived to FILE (JSON Lines) first; safe to run again;
                                  drops usage partitions past their retention (docs/decisions/033)
  usage:import FILE [--source NAME]
                                  usage records from a CSV file (header row, plain or gzip) in batches of 5000;
                                  prints the counts; safe to run again (a record seen before changes nothing)
  usage:simulate [--url URL] [--key KEY] [--interval SECONDS] [--once]
                                  feeds a running portal live: every 5 s the demo SIMs' usage "now" through
                                  POST /api/network/usage (the key: --key, NETWORK_KEY or DATA_DIR/demo-network-key)`;

export async function runCli(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'migrate':
      return migrateCommand();
    case 'seed':
      return seed();
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
    case 'usage:import':
      return usageImport(rest);
    case 'usage:simulate':
      return usageSimulate(rest);
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
