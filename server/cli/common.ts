// What every CLI command shares: the error that the CLI reports as one line, and the database opened for a
// command and closed after it.
import { loadConfig } from '#server/config.ts';
import { dbTargetFrom, initOrm, type Orm } from '#server/db/orm.ts';

/** A refusal the CLI reports as its one line (`Error: <message>`, exit code 1). */
export class CliError extends Error {}

/** Runs `fn` on the configured database, closed afterwards whatever happens. */
export async function withOrm<T>(fn: (orm: Orm) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const orm = await initOrm(dbTargetFrom(config));
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}
