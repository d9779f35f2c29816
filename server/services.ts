// The long-lived parts of a running portal, made once at start and handed to every request.
import type { Config } from './config.ts';
import { dbTargetFrom, initOrm, migrate, pgPoolOf, type DbTarget, type Orm } from './db/orm.ts';
import { createLogger, type Logger } from './log.ts';
import { createHub, type Hub } from './events/hub.ts';
import { createStreams, type Streams } from './http/sse.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { startPurging, type Purger } from './maintenance/purge.ts';
import { startRuleWatch, type RuleWatch } from './rules/watch.ts';

export type Services = {
  config: Config;
  orm: Orm;
  log: Logger;
  mailer: Mailer;
  /** Events to the browser tabs (toasts, session ends), across server instances. */
  hub: Hub;
  /** The open event streams of this instance. */
  streams: Streams;
  /** Runs work after the answer has gone out (mail); errors are logged, shutdown waits for it. */
  background: (task: () => Promise<void>) => void;
  /** Resolves when all background work started so far has finished (tests, shutdown). */
  settled: () => Promise<void>;
  /** Deletes expired login links, rate-limit counters and sessions at an interval. */
  purger: Purger;
  /** The rules' silence sweep and e-mail digests, every minute (server/rules/watch.ts). */
  ruleWatch: RuleWatch;
};

export async function createServices(
  config: Config,
  opts: { log?: Logger; db?: DbTarget; migrate?: boolean } = {},
): Promise<Services> {
  const log = opts.log ?? createLogger(config.logLevel);
  const target = opts.db ?? dbTargetFrom(config);
  const orm = await initOrm(target);
  if (opts.migrate !== false) {
    const applied = await migrate(orm);
    if (applied.length) log.info({ applied }, 'migrations applied');
  }
  const pending = new Set<Promise<void>>();
  const hub = await createHub(orm, { databaseUrl: target.kind === 'postgres' ? target.url : undefined, log });
  const mailer = createMailer(config, log);
  return {
    config,
    orm,
    log,
    mailer,
    hub,
    streams: createStreams(hub),
    background(task) {
      const p = task()
        .catch((err) => log.error({ err }, 'background task failed'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    purger: startPurging(orm, log),
    ruleWatch: startRuleWatch({ orm, hub, mailer, appUrl: config.appUrl, log }),
  };
}

export async function closeServices(
  services: Services,
  opts: { first?: () => Promise<void>; withinMs?: number } = {},
): Promise<void> {
  // Bounded when asked (the server's shutdown), so that a step that never settles (seen once in a test: one pool
  // connection that had run no query kept the process alive after SIGTERM) is logged with what it waited on, and
  // the process still ends.
  let step = 'the first step';
  const steps = async () => {
    await opts.first?.();
    step = 'the jobs';
    services.streams.closeAll();
    await services.purger.stop();
    await services.ruleWatch.stop();
    await services.settled();
    step = 'the hub';
    await services.hub.close();
    services.mailer.close();
    step = 'the database';
    await services.orm.close(true);
  };
  if (!opts.withinMs) return steps();
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    steps().then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), opts.withinMs))),
  ]);
  clearTimeout(timer);
  if (ended) return;
  const pool = await pgPoolOf(services.orm).catch(() => null);
  services.log.warn(
    { step, pool: pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null },
    'shutdown: a step did not end in time',
  );
}
