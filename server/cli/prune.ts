// events:prune: SIM events and audit rows older than the retention deleted in batches, each archived first; the
// usage partitions past their retention dropped (docs/decisions/033).
import { parseArgs } from 'node:util';
import { loadConfig } from '#server/config.ts';
import { migrate } from '#server/db/orm.ts';
import {
  AUDIT_EVENT_YEARS,
  pruneEvents,
  retentionFloor,
  SIM_EVENT_YEARS,
  stockholmMidnight,
} from '#server/maintenance/prune-events.ts';
import { maintainUsagePartitions } from '#server/usage/partitions.ts';
import { CliError, withOrm } from './common.ts';

/** A cutoff of events:prune: the first day of a month (an invoice period starts there), not inside the retention. */
function pruneCutoff(option: string, value: string | undefined, floor: string, what: string): string {
  if (value === undefined) return floor;
  if (!stockholmMidnight(value) || !value.endsWith('-01'))
    throw new CliError(`${option}: give the first day of a month, YYYY-MM-01 (not "${value}")`);
  if (value > floor)
    throw new CliError(`${option} ${value} is inside the retention of ${what}: the earliest rows kept start ${floor}`);
  return value;
}

export async function eventsPrune(argv: string[]): Promise<string> {
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
    const { usage } = loadConfig();
    const u = await maintainUsagePartitions(orm.em.fork(), { now: new Date(), ...usage });
    return [
      `sim_event: deleted ${r.simEvents.deleted} events before ${r.simEvents.cutoff} in ${r.simEvents.batches} batches (kept each SIM's activation and its last event before the cutoff)`,
      `audit_event: deleted ${r.auditEvents.deleted} rows before ${r.auditEvents.cutoff} in ${r.auditEvents.batches} batches`,
      r.archive ? `archived ${r.archived} rows to ${r.archive}` : 'no archive written (--archive FILE keeps the rows)',
      `usage: dropped ${u.dropped.length} partitions (raw records ${usage.rawDays} days, totals ${usage.totalsMonths} months)${u.dropped.length ? `: ${u.dropped.join(', ')}` : ''}`,
    ].join('\n');
  });
}
