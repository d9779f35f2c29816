// Long: the retention rules share one history built here, pruned and archived on both databases.
// Retention (docs/decisions/020): pruneEvents and `npm run cli -- events:prune` on both databases. Of each SIM the
// activation and the last event before the cutoff stay, so the invoice specification of every month from the cutoff
// on is the same after pruning; audit rows before the cutoff go; every deleted row is archived (JSON Lines, gzip)
// before its batch commits; a second run deletes and archives nothing; two runs at once share the rows, each once.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { Company, RatePlan, Sim } from '#server/db/entities.ts';
import { dbTargetFrom, initOrm, migrate, type Em, type Orm } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { loadPlans, specificationRows } from '#server/export/invoice-specification.ts';
import { dayInZone } from '#domain/export/periods.ts';
import { pruneEvents, retentionFloor, stockholmMidnight } from '#server/maintenance/prune-events.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { freshDatabase } from '#tests/helpers/db.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';

const CUTOFF = '2016-01-01';
type Ev = [kind: string, at: string, plan: number];

/** Gives SIM `id` exactly these events (times in Stockholm), activated (and deactivated) as the events say. */
async function history(em: Em, id: number, events: Ev[]): Promise<void> {
  await em.execute(`delete from sim_event where sim_id = ?`, [id]);
  for (const [kind, at, plan] of events)
    await em.execute(
      `insert into sim_event (sim_id, kind, rate_plan_id, at, after) values (?, ?, ?, ?::timestamp at time zone 'Europe/Stockholm', ?)`,
      [id, kind, plan, at, JSON.stringify({ note: `${kind} ${at}` })],
    );
  const last = events.at(-1)!;
  await em.execute(
    `update sim set activated_at = ?::timestamp at time zone 'Europe/Stockholm', rate_plan_id = ?, status = ?,
       deactivated_at = ${last[0] === 'deactivated' ? `?::timestamp at time zone 'Europe/Stockholm'` : 'null'} where id = ?`,
    [events[0]![1], last[2], last[0] === 'deactivated' ? 'deactivated' : 'active']
      .concat(last[0] === 'deactivated' ? [last[1]] : [])
      .concat([id]),
  );
}

/** Old SIMs of Demo AB with histories across the cutoff, and audit rows before and after it. */
async function oldData(em: Em, companyId: number, fresh = false) {
  const plans = (await em.find(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } })).map((p) => p.id);
  const [p1, p2, p3] = plans as [number, number, number];
  // The first four SIMs of the company, or four new ones.
  const ids = fresh
    ? await em.execute<Array<{ id: number }>>(
        `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
         select '8946000000000077' || lpad(g::text, 4, '0'), ?, ?, '', '', 'active', now() from generate_series(1, 4) g
         returning id`,
        [companyId, p1],
      )
    : await em.find(Sim, { company: companyId }, { orderBy: { id: 'asc' }, limit: 4 });
  const [a, b, c, d] = ids.map((r) => Number(r.id)) as [number, number, number, number];
  await history(em, a, [
    ['activated', '2012-03-10 10:00', p1],
    ['planChanged', '2013-05-01 12:00', p2],
    ['updated', '2014-02-01 12:00', p2],
    ['planChanged', '2015-06-15 12:00', p3],
    ['updated', '2015-12-31 23:30', p3],
    ['planChanged', '2016-03-01 09:00', p1],
  ]);
  await history(em, b, [
    ['activated', '2013-01-05 08:00', p2],
    ['planChanged', '2014-07-01 08:00', p3],
    ['deactivated', '2015-04-30 16:00', p3],
  ]);
  await history(em, c, [
    ['activated', '2014-01-01 00:30', p1],
    ['planChanged', '2017-01-01 10:00', p2],
  ]);
  // Many old events on one SIM: several batches of a few rows.
  await history(em, d, [
    ['activated', '2011-06-01 10:00', p1],
    ...Array.from({ length: 30 }, (_, i): Ev => [
      'planChanged',
      `2014-0${1 + (i % 9)}-1${i % 10} 1${i % 10}:00`,
      plans[i % 3]!,
    ]),
    ['updated', '2016-02-02 10:00', p1],
  ]);
  await em.execute(
    `insert into audit_event (company_id, kind, action, target_type, target_id, after, at)
     select ?, 'user', 'createUser', 'User', g::text, '{"by":"cli"}'::jsonb,
       case when g <= 20 then timestamptz '2014-05-01 10:00+02' + g * interval '1 day' else timestamptz '2017-01-01 10:00+01' end
     from generate_series(1, 25) g`,
    [companyId],
  );
  return { a, b, c, d };
}

const eventsOf = (em: Em, id: number) =>
  em
    .execute<Array<{ kind: string; at: string }>>(
      `select kind, to_char(at at time zone 'Europe/Stockholm', 'YYYY-MM-DD HH24:MI') as at from sim_event where sim_id = ? order by at, id`,
      [id],
    )
    .then((rows) => rows.map((r) => `${r.kind} ${r.at}`));

/** The invoice specification's month rows from the cutoff on (three years), as plain values. */
async function spec(em: Em, companyId: number) {
  const plans = await loadPlans(em);
  const out: unknown[] = [];
  const period = { start: { year: 2016, month: 1 }, end: { year: 2018, month: 12 } };
  for await (const rows of specificationRows(em, companyId, period, { today: dayInZone(new Date()), plans }))
    out.push(...rows.map((r) => ({ ...r, plan: r.plan.id })));
  return out;
}

describe('pruneEvents', () => {
  const db = useDemoOrm();
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'prune-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each SIM its activation and last event before the cutoff, the specification unchanged; archives the rest', async () => {
    const em = db.orm.em.fork();
    const { a, b, c, d } = await oldData(em, db.companyId);
    const before = await spec(em, db.companyId);
    expect(before.length).toBeGreaterThan(30);
    const total = async (table: string) =>
      Number((await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${table}`))[0]!.n);
    const [events0, audits0] = [await total('sim_event'), await total('audit_event')];
    const archive = path.join(dir, 'archive.jsonl');
    const r = await pruneEvents(db.orm.em.fork(), {
      simCutoff: CUTOFF,
      auditCutoff: CUTOFF,
      archive,
      simsPerBatch: 2,
      rowsPerBatch: 7,
    });
    expect(await eventsOf(em, a)).toEqual([
      'activated 2012-03-10 10:00',
      'updated 2015-12-31 23:30',
      'planChanged 2016-03-01 09:00',
    ]);
    expect(await eventsOf(em, b)).toEqual(['activated 2013-01-05 08:00', 'deactivated 2015-04-30 16:00']);
    expect(await eventsOf(em, c)).toEqual(['activated 2014-01-01 00:30', 'planChanged 2017-01-01 10:00']);
    const dLeft = await eventsOf(em, d);
    expect(dLeft).toHaveLength(3);
    expect(dLeft[0]).toBe('activated 2011-06-01 10:00');
    expect(dLeft[2]).toBe('updated 2016-02-02 10:00');
    // 3 of a, 1 of b, 29 of d; 20 audit rows.
    expect(r.simEvents.deleted).toBe(33);
    expect(r.simEvents.batches).toBeGreaterThanOrEqual(5);
    expect(r.auditEvents).toMatchObject({ deleted: 20, batches: 3 });
    expect(await total('sim_event')).toBe(events0 - 33);
    expect(await total('audit_event')).toBe(audits0 - 20);
    expect(
      await em.execute(`select 1 from audit_event where at < ?`, [stockholmMidnight(CUTOFF)]).then((x) => x.length),
    ).toBe(0);
    // The specification of every month from the cutoff on: the same rows.
    expect(await spec(em, db.companyId)).toEqual(before);
    // Every deleted row once in the archive, whole, with the SIM's ICCID and company.
    const lines = readFileSync(archive, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(r.archived).toBe(53);
    expect(lines).toHaveLength(53);
    expect(new Set(lines.map((l) => `${l.table}:${l.id}`)).size).toBe(53);
    const simLine = lines.find((l) => l.table === 'sim_event' && l.sim_id === a)!;
    expect(simLine).toMatchObject({ kind: 'planChanged', rate_plan_id: expect.any(Number), company_id: db.companyId });
    expect(simLine.iccid).toMatch(/^\d{19,20}$/);
    expect(lines.filter((l) => l.table === 'audit_event')).toHaveLength(20);

    // Again: nothing left to do, nothing archived twice.
    const again = await pruneEvents(db.orm.em.fork(), { simCutoff: CUTOFF, auditCutoff: CUTOFF, archive });
    expect(again).toMatchObject({ simEvents: { deleted: 0 }, auditEvents: { deleted: 0 }, archived: 0 });
    expect(readFileSync(archive, 'utf8').trim().split('\n')).toHaveLength(53);
  });

  it('two runs at once delete and archive each row once', async () => {
    const em = db.orm.em.fork();
    await oldData(em, db.companyId, true);
    const files = [path.join(dir, 'one.jsonl.gz'), path.join(dir, 'two.jsonl.gz')];
    const runs = await Promise.all(
      files.map((archive) =>
        pruneEvents(db.orm.em.fork(), {
          simCutoff: CUTOFF,
          auditCutoff: CUTOFF,
          archive,
          simsPerBatch: 1,
          rowsPerBatch: 3,
        }),
      ),
    );
    expect(runs[0]!.simEvents.deleted + runs[1]!.simEvents.deleted).toBe(33);
    expect(runs[0]!.auditEvents.deleted + runs[1]!.auditEvents.deleted).toBe(20);
    const ids = files.flatMap((f) =>
      existsSync(f)
        ? gunzipSync(readFileSync(f))
            .toString('utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => `${JSON.parse(l).table}:${JSON.parse(l).id}`)
        : [],
    );
    expect(ids).toHaveLength(53);
    expect(new Set(ids).size).toBe(53);
  });

  it('the retention floors: 1 January, seven and two years back', () => {
    expect(retentionFloor(7, new Date('2026-11-26T12:00:00Z'))).toBe('2019-01-01');
    expect(retentionFloor(2, new Date('2026-12-31T23:30:00Z'))).toBe('2025-01-01'); // already 2027 in Stockholm
    expect(stockholmMidnight('2016-01-01')?.toISOString()).toBe('2015-12-31T23:00:00.000Z');
    expect(stockholmMidnight('2016-07-01')?.toISOString()).toBe('2016-06-30T22:00:00.000Z');
    expect(stockholmMidnight('2016-02-30')).toBeNull();
  });
});

describe('npm run cli -- events:prune', { timeout: 240_000 }, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let drop: () => Promise<void>;
  const open = async (): Promise<Orm> =>
    initOrm(
      dbTargetFrom(
        loadConfig({
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
        }),
      ),
    );
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'prune-cli-'));
    const db = await freshDatabase();
    drop = db.drop;
    env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    if (db.target.kind === 'postgres') env.DATABASE_URL = db.target.url;
    // The CLI opens the database itself: the test's own connection is closed before it runs (PGlite: one process).
    const orm = await open();
    try {
      await migrate(orm);
      await seedDemo(orm.em.fork());
      const demo = await orm.em.fork().findOneOrFail(Company, { customerNumber: '100001' });
      await oldData(orm.em.fork(), demo.id);
    } finally {
      await orm.close(true);
    }
  });
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a cutoff inside the retention or not on a month', async () => {
    const inside = await runCli(env, ['events:prune', '--before', '2025-01-01'], 60_000);
    expect(inside.code).toBe(1);
    expect(inside.err).toContain('--before 2025-01-01 is inside the retention of SIM events (7 years)');
    const day = await runCli(env, ['events:prune', '--before', '2016-01-15'], 60_000);
    expect(day).toMatchObject({ code: 1, err: expect.stringContaining('the first day of a month') });
  });

  it('prunes, archives to a .gz and says what it did; a second run does nothing', async () => {
    const archive = path.join(dataDir, 'events.jsonl.gz');
    const first = await runCli(env, ['events:prune', '--before', CUTOFF, '--archive', archive], 120_000);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(
      "sim_event: deleted 33 events before 2016-01-01 in 1 batches (kept each SIM's activation and its last event before the cutoff)",
    );
    expect(first.out).toContain('audit_event: deleted 20 rows before 2016-01-01 in 1 batches');
    expect(first.out).toContain(`archived 53 rows to ${archive}`);
    const lines = gunzipSync(readFileSync(archive)).toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(53);
    const second = await runCli(env, ['events:prune', '--before', CUTOFF, '--archive', archive], 120_000);
    expect(second.code).toBe(0);
    expect(second.out).toContain('sim_event: deleted 0 events');
    expect(second.out).toContain('audit_event: deleted 0 rows');
    expect(second.out).toContain('archived 0 rows');
    expect(gunzipSync(readFileSync(archive)).toString('utf8').trim().split('\n')).toHaveLength(53);
    // What stayed: the history the specification needs.
    const orm = await open();
    try {
      const demo = await orm.em.fork().findOneOrFail(Company, { customerNumber: '100001' });
      const sims = await orm.em.fork().find(Sim, { company: demo.id }, { orderBy: { id: 'asc' }, limit: 1 });
      expect(await eventsOf(orm.em.fork(), sims[0]!.id)).toEqual([
        'activated 2012-03-10 10:00',
        'updated 2015-12-31 23:30',
        'planChanged 2016-03-01 09:00',
      ]);
    } finally {
      await orm.close(true);
    }
  });
});
