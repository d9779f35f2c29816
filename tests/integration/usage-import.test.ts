// `npm run cli -- usage:import FILE [--source NAME]` on both databases: a CSV and a gzipped CSV, run twice counted
// once, refused rows listed with their line, a broken file refused with exit 1 after the batches before the break
// were stored, and a run again after it taking only the rest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { dbTargetFrom, initOrm, migrate, type Orm } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { freshDatabase } from '#tests/helpers/db.ts';
import { clear } from '#tests/helpers/usage.ts';

const HEADER = 'recordId,iccid,start,end,bytesUp,bytesDown,network,country,rat,imei';

describe('npm run cli -- usage:import', { timeout: 240_000 }, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let drop: () => Promise<void>;
  let iccids: string[] = [];
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
  /** What the store holds: raw records, the sum of the day totals' records and bytes, records kept aside. */
  const stored = async () => {
    const orm = await open();
    try {
      const [r] = await orm.em.fork().execute(
        `select (select count(*) from usage_record) as raw, (select coalesce(sum(records), 0) from usage_day) as days,
            (select coalesce(sum(bytes_down), 0) from usage_month) as down, (select count(*) from usage_aside) as aside`,
      );
      return { raw: Number(r?.raw), days: Number(r?.days), down: Number(r?.down), aside: Number(r?.aside) };
    } finally {
      await orm.close(true);
    }
  };
  /** n records, each 15 minutes of one of the demo SIMs, ending an hour ago; every fifth an unknown ICCID. */
  const csv = (prefix: string, n: number) => {
    const lines = [HEADER];
    for (let i = 0; i < n; i++) {
      const start = new Date(Date.now() - 3_600_000 - (i + 1) * 15 * 60_000);
      const end = new Date(start.getTime() + 15 * 60_000);
      const iccid = i % 5 === 4 ? withCheckDigit(`8946999${String(i).padStart(12, '0')}`) : iccids[i % iccids.length];
      lines.push(`${prefix}-${i},${iccid},${start.toISOString()},${end.toISOString()},${i},1000,240-01,SE,4G,`);
    }
    return lines.join('\n') + '\n';
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'usage-cli-'));
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
      // Only this test's records: the demo's own 90 days of usage out of the way.
      await clear(orm.em.fork());
      const sims = await orm.em
        .fork()
        .execute<Array<{ iccid: string }>>(`select iccid from sim where status = 'active' order by id limit 7`);
      iccids = sims.map((s) => s.iccid);
    } finally {
      await orm.close(true);
    }
  });
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a CSV and a gzipped CSV; a second run counts nothing again', async () => {
    const plain = path.join(dataDir, 'usage.csv');
    writeFileSync(plain, csv('a', 50) + `bad-1,${iccids[0]},yesterday,,1,1,,,,\n`);
    const first = await runCli(env, ['usage:import', plain, '--source', 'mediation', '--batch', '20'], 120_000);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(`usage:import ${plain} (source mediation): 51 records in 3 batches`);
    expect(first.out).toContain('taken 40, duplicates 0, unknown ICCID 10, refused 1');
    expect(first.out).toContain('  line 52: start är ingen tidpunkt i ISO 8601 med tidszon');
    const after = await stored();
    expect(after).toEqual({ raw: 40, days: 40, down: 40_000, aside: 10 });

    const again = await runCli(env, ['usage:import', plain, '--source', 'mediation'], 120_000);
    expect(again.code).toBe(0);
    expect(again.out).toContain('taken 0, duplicates 50, unknown ICCID 0, refused 1');
    expect(await stored()).toEqual(after);

    const gz = path.join(dataDir, 'usage.csv.data'); // no .gz name: gzip is told by the first bytes
    writeFileSync(gz, gzipSync(csv('b', 30)));
    const zipped = await runCli(env, ['usage:import', gz, '--source', 'mediation'], 120_000);
    expect(zipped.code).toBe(0);
    expect(zipped.out).toContain('(source mediation, gzip): 30 records in 1 batches');
    expect(zipped.out).toContain('taken 24, duplicates 0, unknown ICCID 6, refused 0');
    const twice = await runCli(env, ['usage:import', gz, '--source', 'mediation'], 120_000);
    expect(twice.out).toContain('taken 0, duplicates 30');
    expect(await stored()).toEqual({ raw: 64, days: 64, down: 64_000, aside: 16 });
  });

  it('exits 1 on a file it cannot read; after a broken run, a run again takes only the rest', async () => {
    const missing = await runCli(env, ['usage:import', path.join(dataDir, 'nothing.csv')], 60_000);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^Error: .*nothing\.csv cannot be read: ENOENT/);
    const noHeader = path.join(dataDir, 'no-header.csv');
    writeFileSync(noHeader, 'a,b,c\n1,2,3\n');
    const refused = await runCli(env, ['usage:import', noHeader], 60_000);
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('the header row lacks recordId, iccid') });

    // A gzip cut off in its middle, as a crash of the copy would leave it: the whole batches before the cut are
    // stored, the run says the file is broken.
    const before = await stored();
    const whole = gzipSync(csv('c', 400), { level: 0 });
    const cut = path.join(dataDir, 'cut.csv.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const broken = await runCli(env, ['usage:import', cut, '--source', 'mediation', '--batch', '50'], 120_000);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('cannot be read');
    const partly = await stored();
    const done = partly.raw + partly.aside - before.raw - before.aside;
    expect(done % 50).toBe(0);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(400);
    // The whole file now: only what the broken run did not store is taken.
    const full = path.join(dataDir, 'full.csv.gz');
    writeFileSync(full, whole);
    const resumed = await runCli(env, ['usage:import', full, '--source', 'mediation', '--batch', '50'], 120_000);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toContain(`duplicates ${done},`);
    const end = await stored();
    expect(end.raw - before.raw).toBe(320);
    expect(end.aside - before.aside).toBe(80);
    expect(end.days).toBe(end.raw);
  });

  it('events:prune says what it did with the usage partitions', async () => {
    const pruned = await runCli(env, ['events:prune'], 120_000);
    expect(pruned.code).toBe(0);
    expect(pruned.out).toContain('usage: dropped 0 partitions (raw records 90 days, totals 36 months)');
    const shorter = await runCli({ ...env, USAGE_RAW_RETENTION_DAYS: '5' }, ['events:prune'], 120_000);
    expect(shorter.out).toContain('(raw records 5 days, totals 36 months)');
  });
});
