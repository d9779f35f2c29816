// Retention of the history tables (docs/decisions/020): SIM events are invoice material, kept the current calendar
// year and the seven before it; audit events the current year and the two before it. `npm run cli -- events:prune`
// deletes what is older, a batch per transaction, optionally writing each deleted row to an archive (JSON Lines,
// gzip when the file ends in .gz) before its batch commits. Of each SIM it keeps its activation and the last event
// before the cutoff (the plan in force then), so an invoice specification of any month from the cutoff on is the
// same after pruning as before. Two runs at once (two machines) share the work: a batch takes its rows with
// FOR UPDATE SKIP LOCKED, so each row is deleted, and archived, by one of them.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { defined } from '#domain/defined.ts';
import type { Em } from '#server/db/orm.ts';

/** Full calendar years kept before the current one (Bokföringslagen 7 kap. 2 §: seven years after the year's end). */
export const SIM_EVENT_YEARS = 7;
/** Full calendar years of audit rows kept before the current one (who did what: support and disputes). */
export const AUDIT_EVENT_YEARS = 2;
/** SIMs whose events one batch looks at, and rows one transaction deletes at most. */
export const SIMS_PER_BATCH = 1_000;
export const ROWS_PER_BATCH = 5_000;

const ZONE = 'Europe/Stockholm';

function stockholmOffsetMinutes(at: Date): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  const name = defined(part, 'the time zone name of Intl.DateTimeFormat').value; // "GMT+1"
  const m = /GMT([+-]\d+)/.exec(name);
  return m ? Number(m[1]) * 60 : 0;
}

/** Midnight of a date (YYYY-MM-DD) in Stockholm, or null for a date that does not exist. */
export function stockholmMidnight(date: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const utc = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== date) return null;
  return new Date(utc.getTime() - stockholmOffsetMinutes(utc) * 60_000);
}

/** The earliest cutoff that keeps `years` full calendar years and the current one: 1 January, Stockholm time. */
export function retentionFloor(years: number, now = new Date()): string {
  const year = Number(new Intl.DateTimeFormat('en-US', { timeZone: ZONE, year: 'numeric' }).format(now));
  return `${year - years}-01-01`;
}

export type PruneResult = {
  simEvents: { cutoff: string; deleted: number; batches: number };
  auditEvents: { cutoff: string; deleted: number; batches: number };
  archived: number;
  archive: string | null;
};

/**
 * An archive file, appended to a batch at a time and synced to disk before the batch's transaction commits. A
 * gzip archive gets one gzip member per batch: the file is a valid .gz after every batch (gzip reads the members
 * as one stream), and a run cut short leaves whole batches only.
 */
class Archive {
  /** Opened at the first row: a run that archives nothing leaves no file (an empty .gz is no gzip file). */
  private fd: number | null = null;
  private readonly gzip: boolean;
  constructor(readonly file: string) {
    this.gzip = file.endsWith('.gz');
  }
  write(lines: string[]): void {
    if (lines.length === 0) return;
    this.fd ??= openSync(this.file, 'a', 0o600);
    const text = Buffer.from(lines.join('\n') + '\n', 'utf8');
    writeSync(this.fd, this.gzip ? gzipSync(text) : text);
    fsyncSync(this.fd);
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
  }
}

const line = (row: { row: unknown }) => (typeof row.row === 'string' ? row.row : JSON.stringify(row.row));

/**
 * Deletes (and archives) SIM events before `simCutoff` and audit events before `auditCutoff` (dates, Stockholm
 * midnight), a batch per transaction. The cutoffs are the caller's to check against the retention (the CLI does).
 */
export async function pruneEvents(
  em: Em,
  opts: {
    simCutoff: string;
    auditCutoff: string;
    archive?: string;
    simsPerBatch?: number;
    rowsPerBatch?: number;
    log?: (message: string) => void;
  },
): Promise<PruneResult> {
  const simAt = stockholmMidnight(opts.simCutoff);
  const auditAt = stockholmMidnight(opts.auditCutoff);
  if (!simAt || !auditAt) throw new Error('a cutoff is not a date (YYYY-MM-DD)');
  const sims = Math.max(1, Math.trunc(opts.simsPerBatch ?? SIMS_PER_BATCH));
  const rows = Math.max(1, Math.trunc(opts.rowsPerBatch ?? ROWS_PER_BATCH));
  const archive = opts.archive ? new Archive(opts.archive) : null;
  const result: PruneResult = {
    simEvents: { cutoff: opts.simCutoff, deleted: 0, batches: 0 },
    auditEvents: { cutoff: opts.auditCutoff, deleted: 0, batches: 0 },
    archived: 0,
    archive: opts.archive ?? null,
  };
  /** One batch: the statement's deleted rows as JSON, archived before the transaction commits. */
  const batch = async (sql: string, params: unknown[]): Promise<number> =>
    em.fork().transactional(async (tx) => {
      const gone = await tx.execute<Array<{ row: unknown }>>(sql, params);
      archive?.write(gone.map(line));
      result.archived += archive ? gone.length : 0;
      return gone.length;
    });
  try {
    // SIM events, the SIMs a range of ids at a time. Of each SIM: its activation and its last event before the
    // cutoff stay (what the invoice specification needs to know the plan in force at the cutoff).
    const simSql = `with doomed as (
        select e.id from sim_event e
        where e.sim_id > ? and e.sim_id <= ? and e.at < ? and e.kind <> 'activated'
          and e.id <> (select l.id from sim_event l where l.sim_id = e.sim_id and l.at < ?
                       order by l.at desc, l.id desc limit 1)
        order by e.id limit ${rows} for update of e skip locked
      ), gone as (
        delete from sim_event d using doomed where d.id = doomed.id returning d.*
      )
      select to_jsonb(gone) || jsonb_build_object('table', 'sim_event', 'iccid', s.iccid, 'company_id', s.company_id) as row
      from gone join sim s on s.id = gone.sim_id`;
    for (let lo = 0; ;) {
      const [range] = await em
        .fork()
        .execute<Array<{ hi: number | null }>>(
          `select max(id)::int as hi from (select id from sim where id > ? order by id limit ${sims}) x`,
          [lo],
        );
      const hi = range?.hi == null ? null : Number(range.hi);
      if (hi === null) break;
      for (;;) {
        const n = await batch(simSql, [lo, hi, simAt, simAt]);
        result.simEvents.deleted += n;
        if (n > 0) result.simEvents.batches++;
        if (n < rows) break;
      }
      lo = hi;
      opts.log?.(`sim_event: ${result.simEvents.deleted} deleted (SIMs up to id ${hi})`);
    }
    // Audit rows, oldest first (the index on at).
    const auditSql = `with doomed as (
        select id from audit_event where at < ? order by at limit ${rows} for update skip locked
      ), gone as (
        delete from audit_event d using doomed where d.id = doomed.id returning d.*
      )
      select to_jsonb(gone) || jsonb_build_object('table', 'audit_event') as row from gone`;
    for (;;) {
      const n = await batch(auditSql, [auditAt]);
      result.auditEvents.deleted += n;
      if (n > 0) result.auditEvents.batches++;
      if (n < rows) break;
    }
  } finally {
    archive?.close();
  }
  return result;
}
