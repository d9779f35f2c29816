// The long-lived parts of a running portal, made once at start and handed to every request.
import type { Config } from './config.js';
import { dbTargetFrom, initOrm, migrate, type DbTarget, type Orm } from './db/orm.js';
import { createLogger, type Logger } from './log.js';

export type Services = {
  config: Config;
  orm: Orm;
  log: Logger;
};

export async function createServices(config: Config, opts: { log?: Logger; db?: DbTarget; migrate?: boolean } = {}): Promise<Services> {
  const log = opts.log ?? createLogger(config.logLevel);
  const orm = await initOrm(opts.db ?? dbTargetFrom(config));
  if (opts.migrate !== false) {
    const applied = await migrate(orm);
    if (applied.length) log.info({ applied }, 'migrations applied');
  }
  return { config, orm, log };
}

export async function closeServices(services: Services): Promise<void> {
  await services.orm.close(true);
}
