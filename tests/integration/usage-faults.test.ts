// Usage ingest on PostgreSQL under faults: the connection cut in the middle of a 10,000-record batch (in its last
// statement: the rules' firings) leaves nothing half-counted, no firing and no webhook, and the retry counts it once,
// fires once and queues each webhook once (the outbox: a firing and its event are one statement); two processes
// ingesting the same batches at once count each record once and fire each rule once per SIM (server/usage/ingest.ts,
// server/rules/evaluate.ts, docs/decisions/033).
import { describe, expect, it } from 'vitest';
import { Company, Rule, WebhookEndpoint } from '#server/db/entities.ts';
import { initOrm, type Em } from '#server/db/orm.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { cutInside } from '#tests/helpers/faults.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { activeSims, clear, num, unknownIccid } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const opts = { now: new Date('2026-11-28T12:00:00Z') };
/** Every tenth record's ICCID is no SIM's. */
const known = (i: number) => i % 10 !== 9;

needs(describe, 'PostgreSQL')('faults and two processes (PostgreSQL)', () => {
  const batchOf = (sims: Array<{ iccid: string }>, prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      recordId: `${prefix}-${i}`,
      iccid: !known(i) ? unknownIccid(100 + i) : (sims[i % sims.length]?.iccid ?? ''),
      start: new Date(Date.parse('2026-11-27T22:00:00Z') + (i % 180) * 60_000).toISOString(),
      end: new Date(Date.parse('2026-11-27T22:15:00Z') + (i % 180) * 60_000).toISOString(),
      bytesUp: i,
      bytesDown: 2 * i,
    }));
  const totals = async (em: Em) => {
    const [r] = await em.execute(
      `select (select count(*) from usage_record) as raw, (select coalesce(sum(records), 0) from usage_day) as days,
         (select coalesce(sum(bytes_down), 0) from usage_month) as down, (select count(*) from usage_aside) as aside`,
    );
    return { raw: num(r?.raw), days: num(r?.days), down: num(r?.down), aside: num(r?.aside) };
  };

  /** A rule of the demo company that fires for every SIM with usage this month, pauses it and sends webhooks. */
  const fired = async (em: Em) => {
    const [r] = await em.execute(
      `select (select count(*) from rule_firing) as firings,
         (select count(*) from webhook_event where type = 'usage.threshold_reached') as events,
         (select count(*) from webhook_event where type = 'sim.paused') as paused`,
    );
    return { firings: num(r?.firings), events: num(r?.events), paused: num(r?.paused) };
  };
  const demoSimsWithUsage = async (em: Em) => {
    const [r] = await em.execute(
      `select count(distinct m.sim_id) as n from usage_month m join company c on c.id = m.company_id
       where c.customer_number = '100001'`,
    );
    return num(r?.n);
  };
  const withRule = async (em: Em) => {
    const demo = await em.findOneOrFail(Company, { customerNumber: '100001' });
    em.create(WebhookEndpoint, {
      company: demo,
      url: 'https://hooks.example/usage',
      events: ['usage.threshold_reached', 'sim.paused'],
      secret: 'x'.repeat(40),
    });
    em.create(Rule, {
      company: demo,
      name: 'Allt över 1 byte',
      target: 'all',
      condition: 'month_bytes',
      threshold: 1,
      notifyWebhook: true,
      pause: true,
    });
    await em.flush();
  };

  it('a connection cut in the middle of a 10,000-record batch leaves nothing; the retry counts it once', async () => {
    const em = db.orm.em.fork();
    await clear(em);
    await withRule(em);
    const batch = batchOf(await activeSims(em, 50), 'cut', 10_000);
    // The batch stops in its last statement (the rules' firings), after the raw records, totals and aside were written.
    const failed = await cutInside(db.orm, 'rule_firing', () =>
      ingestUsage(db.orm.em.fork(), 'mediation', batch, opts),
    );
    expect(failed).toBeInstanceOf(Error);
    expect(await totals(db.orm.em.fork())).toEqual({ raw: 0, days: 0, down: 0, aside: 0 });
    expect(await fired(db.orm.em.fork())).toEqual({ firings: 0, events: 0, paused: 0 });
    const retry = await ingestUsage(db.orm.em.fork(), 'mediation', batch, opts);
    expect(retry).toEqual({ taken: 9_000, duplicates: 0, unknownIccid: 1_000, refused: [] });
    const down = batch.filter((_, i) => known(i)).reduce((sum, r) => sum + r.bytesDown, 0);
    expect(await totals(db.orm.em.fork())).toEqual({ raw: 9_000, days: 9_000, down, aside: 1_000 });
    // Each of the demo company's SIMs with usage fired once, its webhook and its pause once; a repeat adds nothing.
    const n = await demoSimsWithUsage(db.orm.em.fork());
    expect(n).toBeGreaterThan(0);
    expect(await fired(db.orm.em.fork())).toEqual({ firings: n, events: n, paused: n });
    await ingestUsage(db.orm.em.fork(), 'mediation', batch, opts);
    expect(await fired(db.orm.em.fork())).toEqual({ firings: n, events: n, paused: n });
  });

  it('two processes ingesting the same batches at once count each record once', async () => {
    const em = db.orm.em.fork();
    await clear(em);
    // The rule of the test before stays on: it fires again for the month, once per SIM, whoever takes a record first.
    await em.execute(`delete from rule_firing`);
    const sims = await activeSims(em, 50);
    const batches = [0, 1, 2, 3].map((b) => batchOf(sims, `twice-${b}`, 2_000));
    const other = await initOrm({ kind: 'postgres', url: String(db.orm.config.get('clientUrl')) });
    try {
      const run = async (orm: typeof other) => {
        const sum = { taken: 0, duplicates: 0, unknownIccid: 0 };
        for (const b of batches) {
          const c = await ingestUsage(orm.em.fork(), 'mediation', b, opts);
          sum.taken += c.taken;
          sum.duplicates += c.duplicates;
          sum.unknownIccid += c.unknownIccid;
        }
        return sum;
      };
      const [a, b] = await Promise.all([run(db.orm), run(other)]);
      expect(a.taken + b.taken).toBe(4 * 1_800);
      expect(a.unknownIccid + b.unknownIccid).toBe(4 * 200);
      expect(a.duplicates + b.duplicates).toBe(4 * 2_000);
    } finally {
      await other.close(true);
    }
    const down = batches.flatMap((b) => b.filter((_, i) => known(i))).reduce((sum, r) => sum + r.bytesDown, 0);
    expect(await totals(em)).toEqual({ raw: 7_200, days: 7_200, down, aside: 800 });
    expect((await fired(em)).firings).toBe(await demoSimsWithUsage(em));
  });
});
