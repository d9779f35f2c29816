// The usage tables' partitions (docs/decisions/033): made on demand before a batch needs them (in their own
// statement, never inside the batch's transaction) and ahead by the maintenance, and dropped whole once past the
// retention: never row-by-row deletes. A partition is named by its table and the start of its range:
// usage_record_p20261128 (a UTC day of `start`), usage_aside_p202611 (a UTC month of `start`), usage_day_p202611 (a
// month of Swedish days), usage_month_p2026 (a year of Swedish months).
import type { Em } from '#server/db/orm.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';

export const USAGE_RAW_DAYS = 90;
export const USAGE_TOTALS_MONTHS = 36;

type Step = 'day' | 'month' | 'year';
export type UsageTable = 'usage_record' | 'usage_aside' | 'usage_day' | 'usage_month';

const STEPS: Record<UsageTable, { step: Step; time: boolean }> = {
  usage_record: { step: 'day', time: true },
  usage_aside: { step: 'month', time: true },
  usage_day: { step: 'month', time: false },
  usage_month: { step: 'year', time: false },
};

export type Partition = { table: UsageTable; name: string; from: string; to: string };

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The first day of the step holding `day` (YYYY-MM-DD), and the first day of the next. */
function range(step: Step, day: string): { from: string; to: string } {
  const [y, m] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  if (step === 'day') return { from: day, to: iso(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS)) };
  if (step === 'month') return { from: `${day.slice(0, 7)}-01`, to: iso(new Date(Date.UTC(y, m, 1))) };
  return { from: `${y}-01-01`, to: `${y + 1}-01-01` };
}

/** The partition of `table` that holds the row whose partition key falls on `day` (YYYY-MM-DD). */
export function partitionOf(table: UsageTable, day: string): Partition {
  const { from, to } = range(STEPS[table].step, day);
  const digits = from.replaceAll('-', '');
  const step = STEPS[table].step;
  const name = `${table}_p${step === 'day' ? digits : step === 'month' ? digits.slice(0, 6) : digits.slice(0, 4)}`;
  return { table, name, from, to };
}

/** The partitions a raw record starting at `start` needs: its own table's and its day's and month's totals. */
export function partitionsForRecord(start: Date, aside: boolean): Partition[] {
  const utc = iso(start);
  const day = swedishDay(start);
  if (aside) return [partitionOf('usage_aside', utc)];
  return [partitionOf('usage_record', utc), partitionOf('usage_day', day), partitionOf('usage_month', monthStart(day))];
}

const bound = (table: UsageTable, day: string) => (STEPS[table].time ? `'${day} 00:00:00+00'` : `'${day}'`);

/** The partitions of the usage tables that exist, by name. */
export async function existingPartitions(em: Em): Promise<Set<string>> {
  const rows = await em.execute<Array<{ name: string }>>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
     where p.relname in ('usage_record', 'usage_aside', 'usage_day', 'usage_month')`,
  );
  return new Set(rows.map((r) => r.name));
}

/**
 * Makes the partitions of `wanted` that do not exist yet, each by its own statement (outside any transaction:
 * it locks the parent table for a moment). Two processes making the same one at once: the second finds it made.
 * Returns the names made.
 */
export async function ensurePartitions(em: Em, wanted: Partition[]): Promise<string[]> {
  const unique = new Map(wanted.map((p) => [p.name, p]));
  if (unique.size === 0) return [];
  const have = await existingPartitions(em);
  const made: string[] = [];
  for (const p of unique.values()) {
    if (have.has(p.name)) continue;
    try {
      await em.execute(
        `create table if not exists "${p.name}" partition of "${p.table}" for values from (${bound(p.table, p.from)}) to (${bound(p.table, p.to)})`,
      );
      made.push(p.name);
    } catch (e) {
      // Made meanwhile by another process (its catalog row's unique key, or the name taken).
      if (!(await existingPartitions(em)).has(p.name)) throw e;
    }
  }
  return made;
}

/** The oldest start the raw store keeps: midnight UTC of the day `days` days before `now`. */
export function rawOldest(now: Date, days: number): Date {
  return new Date(Date.parse(`${iso(new Date(now.getTime() - days * DAY_MS))}T00:00:00Z`));
}

/** The first Swedish month the totals keep (YYYY-MM-01): `months` months before the current one. */
export function totalsOldest(now: Date, months: number): string {
  const day = swedishDay(now);
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

export type Retention = { now: Date; rawDays: number; totalsMonths: number };

/**
 * Drops the partitions wholly older than the retention: raw records and aside records before rawOldest, totals
 * before totalsOldest (a year of month totals goes once its last month is past), and the company's day totals of
 * the months before it. Makes today's and tomorrow's
 * partitions, so that ingest seldom has to. Safe to run again and on every instance.
 */
export async function maintainUsagePartitions(em: Em, r: Retention): Promise<{ dropped: string[]; made: string[] }> {
  const raw = iso(rawOldest(r.now, r.rawDays));
  const totals = totalsOldest(r.now, r.totalsMonths);
  const dropped: string[] = [];
  for (const name of [...(await existingPartitions(em))].sort()) {
    const m = /^(usage_record|usage_aside|usage_day|usage_month)_p(\d{4})(\d{2})?(\d{2})?$/.exec(name);
    if (!m) continue;
    const table = m[1] as UsageTable;
    const p = partitionOf(table, `${m[2]}-${m[3] ?? '01'}-${m[4] ?? '01'}`);
    const cutoff = table === 'usage_record' || table === 'usage_aside' ? raw : totals;
    if (p.to <= cutoff) {
      await em.execute(`drop table if exists "${name}"`);
      dropped.push(name);
    }
  }
  // The company's day totals are a few rows a day, not partitioned: their whole months past the retention go.
  await em.execute('delete from usage_company_day where day < ?', [totals]);
  await em.execute('delete from usage_tag_day where day < ?', [totals]);
  const ahead = [r.now, new Date(r.now.getTime() + DAY_MS)].flatMap((t) => [
    ...partitionsForRecord(t, false),
    ...partitionsForRecord(t, true),
  ]);
  return { dropped, made: await ensurePartitions(em, ahead) };
}
