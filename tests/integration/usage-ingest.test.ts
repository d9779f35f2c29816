// Long: the ingest's rules and its property test share the helpers and the seeded SIMs of one file.
// Usage taken in (server/usage/ingest.ts) on a real database, PGlite or PostgreSQL: the counts, a repeat that
// changes nothing, unknown ICCIDs kept aside, a batch that fails in the middle leaving nothing, and the property
// that every day's and month's total is the sum of the raw records it stands for, whatever the order, the
// lateness and the repeats of the records, across Swedish midnights, month ends and both DST changes. The
// connection cut mid-batch and two processes at once: usage-faults.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { swedishDay } from '#domain/usage/time.ts';
import { CHECK_SLICE, ingestUsage } from '#server/usage/ingest.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { activeSims, clear, num, unknownIccid } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const NOW = new Date('2026-11-28T12:00:00Z');
/** A raw window long enough to hold both of 2026's DST changes. */
const RAW_DAYS = 300;
const opts = { now: NOW, rawDays: RAW_DAYS };

describe('ingestUsage', () => {
  it("checks a large batch in slices, letting the server's other work run between them", async () => {
    // 10 slices of records every one of which is refused (no database work: the check alone). A ticker counts the
    // event loop's turns while the call runs: one between each two slices. Checked whole, it would count none.
    const records = Array.from({ length: CHECK_SLICE * 10 }, (_, i) => ({ recordId: `x${i}`, iccid: 'x' }));
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const counts = await ingestUsage(db.orm.em.fork(), 'mediation', records, opts);
    running = false;
    expect(counts.refused).toHaveLength(records.length);
    expect(counts.refused.at(-1)?.index).toBe(records.length - 1);
    expect(turns).toBeGreaterThanOrEqual(9);
  });

  it('counts taken, duplicates, unknown ICCIDs and refusals; a repeat changes nothing', async () => {
    const em = db.orm.em.fork();
    await clear(em);
    const [sim] = await activeSims(em, 1);
    if (!sim) throw new Error('no demo SIM');
    const rec = (recordId: string, start: string, end: string, up: number, down: number, extra = {}) => ({
      recordId,
      iccid: sim.iccid,
      start,
      end,
      bytesUp: up,
      bytesDown: down,
      ...extra,
    });
    const batch = [
      rec('a', '2026-11-27T23:50:00+01:00', '2026-11-28T00:05:00+01:00', 10, 20, { network: '240-01', country: 'SE' }),
      rec('b', '2026-11-28T00:05:00+01:00', '2026-11-28T00:20:00+01:00', 1, 2, { network: '242-01', country: 'NO' }),
      rec('b', '2026-11-28T00:05:00+01:00', '2026-11-28T00:20:00+01:00', 1, 2),
      { ...rec('c', '2026-11-28T00:05:00+01:00', '2026-11-28T00:20:00+01:00', 5, 5), iccid: unknownIccid(1) },
      { recordId: 'd', iccid: 'x' },
    ];
    const first = await ingestUsage(em, 'mediation', batch, opts);
    expect(first).toEqual({
      taken: 2,
      duplicates: 1,
      unknownIccid: 1,
      refused: [{ index: 4, reason: 'iccid är ogiltigt: ICCID får bara innehålla siffror.' }],
    });
    const state = async () => ({
      days: (await em.execute(`select day, bytes_up, bytes_down, records from usage_day order by day`)).map((r) => ({
        day: String(r.day),
        up: num(r.bytes_up),
        down: num(r.bytes_down),
        records: num(r.records),
      })),
      months: (await em.execute(`select month, bytes_up, bytes_down, records from usage_month`)).map((r) => ({
        month: String(r.month),
        up: num(r.bytes_up),
        down: num(r.bytes_down),
        records: num(r.records),
      })),
      seen: await em.execute(`select sim_id, at, network, country from usage_last_seen`),
      aside: await em.execute(`select source, record_id, iccid, bytes_up from usage_aside`),
      raw: num((await em.execute(`select count(*) as n from usage_record`))[0]?.n),
    });
    const before = await state();
    // Record a: 23:50 on 27 November in Sweden; record b: just after midnight, the 28th.
    expect(before.days).toEqual([
      { day: '2026-11-27', up: 10, down: 20, records: 1 },
      { day: '2026-11-28', up: 1, down: 2, records: 1 },
    ]);
    expect(before.months).toEqual([{ month: '2026-11-01', up: 11, down: 22, records: 2 }]);
    expect(before.seen).toHaveLength(1);
    expect(new Date(String(before.seen[0]?.at)).toISOString()).toBe('2026-11-27T23:20:00.000Z');
    expect(before.seen[0]).toMatchObject({ network: '242-01', country: 'NO' });
    expect(before.aside).toEqual([
      { source: 'mediation', record_id: 'c', iccid: unknownIccid(1), bytes_up: expect.anything() },
    ]);
    expect(before.raw).toBe(2);

    const again = await ingestUsage(em, 'mediation', batch, opts);
    expect(again).toEqual({ taken: 0, duplicates: 4, unknownIccid: 0, refused: first.refused });
    expect(await state()).toEqual(before);
    // The same ids from another source are other records.
    expect((await ingestUsage(em, 'other', batch.slice(0, 2), opts)).taken).toBe(2);
  });

  it('keeps nothing of a batch whose second statement fails, and counts it once when sent again', async () => {
    const em = db.orm.em.fork();
    await clear(em);
    const sims = await activeSims(em, 3);
    const batch = sims.map((s, i) => ({
      recordId: `f-${i}`,
      iccid: s.iccid,
      start: '2026-11-20T10:00:00Z',
      end: '2026-11-20T10:15:00Z',
      bytesUp: 100,
      bytesDown: 200,
    }));
    batch.push({ ...batch[0], recordId: 'f-aside', iccid: unknownIccid(2) } as (typeof batch)[number]);
    // The fault: keeping the unknown ICCID aside fails, after the known SIMs' records and totals were written in
    // the same transaction.
    await em.execute(`create function usage_test_fault() returns trigger language plpgsql as $$
      begin raise exception 'usage test fault'; end $$`);
    await em.execute(
      `create trigger usage_test_fault after insert on usage_aside for each row execute function usage_test_fault()`,
    );
    try {
      await expect(ingestUsage(em, 'mediation', batch, opts)).rejects.toThrow(/usage test fault/);
    } finally {
      await em.execute(`drop trigger usage_test_fault on usage_aside`);
      await em.execute(`drop function usage_test_fault()`);
    }
    for (const t of ['usage_record', 'usage_day', 'usage_month', 'usage_last_seen', 'usage_aside', 'usage_company_day'])
      expect(num((await em.execute(`select count(*) as n from ${t}`))[0]?.n), t).toBe(0);
    expect(await ingestUsage(em, 'mediation', batch, opts)).toEqual({
      taken: 3,
      duplicates: 0,
      unknownIccid: 1,
      refused: [],
    });
    expect(await ingestUsage(em, 'mediation', batch, opts)).toMatchObject({ taken: 0, duplicates: 4 });
    const [day] = await em.execute(`select sum(bytes_down) as down, sum(records) as n from usage_day`);
    expect([num(day?.down), num(day?.n)]).toEqual([600, 3]);
  });
});

/** Instants near the edges that matter: Swedish midnights around both DST changes and month ends. */
const EDGES = [
  '2026-02-28T23:00:00Z', // 1 March 00:00 CET
  '2026-03-28T23:00:00Z', // 29 March 00:00 CET, the spring change's day
  '2026-03-29T01:00:00Z', // 03:00 CEST, the hour that was skipped
  '2026-03-29T22:00:00Z', // 30 March 00:00 CEST
  '2026-03-31T22:00:00Z', // 1 April 00:00 CEST
  '2026-09-30T22:00:00Z', // 1 October 00:00 CEST
  '2026-10-24T22:00:00Z', // 25 October 00:00 CEST, the autumn change's day
  '2026-10-25T01:00:00Z', // 02:00 CET, the hour that came twice
  '2026-10-25T23:00:00Z', // 26 October 00:00 CET
  '2026-10-31T23:00:00Z', // 1 November 00:00 CET
].map((s) => Date.parse(s));

type Gen = { sim: number; id: number; at: number; minutes: number; up: number; down: number };

describe('totals against the raw records (property)', () => {
  it('every day and month total is the sum of its records, sent late, repeated and out of order', async () => {
    const em = db.orm.em.fork();
    const sims = await activeSims(em, 4);
    // Tags on two of the SIMs (one with two): the company's days by tag follow them.
    const [s0, s1] = sims as [(typeof sims)[number], (typeof sims)[number]];
    await em.execute(
      `insert into sim_tag (company_id, sim_id, tag)
       select s.company_id, s.id, t from sim s, unnest(?::text[]) t where s.id = ? on conflict do nothing`,
      ['{Prop A}', s0.id],
    );
    await em.execute(
      `insert into sim_tag (company_id, sim_id, tag)
       select s.company_id, s.id, t from sim s, unnest(?::text[]) t where s.id = ? on conflict do nothing`,
      ['{"Prop A","Prop B"}', s1.id],
    );
    const record = fc.record({
      sim: fc.integer({ min: 0, max: sims.length }), // sims.length: an unknown ICCID
      id: fc.integer({ min: 0, max: 60 }), // few ids: repeats within and across batches
      at: fc.oneof(
        fc.tuple(fc.constantFrom(...EDGES), fc.integer({ min: -90, max: 90 })).map(([e, m]) => e + m * 60_000),
        fc.integer({ min: Date.parse('2026-02-15T00:00:00Z'), max: Date.parse('2026-11-28T11:00:00Z') }),
      ),
      minutes: fc.integer({ min: 0, max: 15 }),
      up: fc.integer({ min: 0, max: 5_000_000_000 }),
      down: fc.integer({ min: 0, max: 5_000_000_000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 30 })),
        async (gens, cuts) => {
          await clear(em);
          // A record id names one record: its repeats carry the first one's fields, as a source resends it.
          const first = new Map<number, Gen>();
          for (const g of gens) if (!first.has(g.id)) first.set(g.id, g);
          const sent = gens.map((g) => {
            const f = first.get(g.id) as Gen;
            return {
              recordId: `r${f.id}`,
              iccid: f.sim < sims.length ? (sims[f.sim]?.iccid ?? '') : unknownIccid(3),
              start: new Date(f.at).toISOString(),
              end: new Date(f.at + f.minutes * 60_000).toISOString().replace('Z', '+00:00'),
              bytesUp: f.up,
              bytesDown: f.down,
            };
          });
          // Batches of the random sizes given, in the order generated (late and out of order already).
          let taken = 0;
          let aside = 0;
          for (let i = 0, c = 0; i < sent.length; c++) {
            const size = cuts.length ? (cuts[c % cuts.length] ?? 10) : 10;
            const counts = await ingestUsage(em, 'prop', sent.slice(i, i + size), opts);
            expect(counts.refused).toEqual([]);
            taken += counts.taken;
            aside += counts.unknownIccid;
            i += size;
          }
          // What the totals must be: each distinct record once, in its Swedish day and month.
          const days = new Map<string, { up: number; down: number; n: number }>();
          const months = new Map<string, { up: number; down: number; n: number }>();
          const add = (m: Map<string, { up: number; down: number; n: number }>, key: string, f: Gen) => {
            const t = m.get(key) ?? { up: 0, down: 0, n: 0 };
            m.set(key, { up: t.up + f.up, down: t.down + f.down, n: t.n + 1 });
          };
          let known = 0;
          for (const f of first.values()) {
            const sim = sims[f.sim];
            if (!sim) continue;
            known++;
            const day = swedishDay(new Date(f.at));
            add(days, `${sim.id} ${day}`, f);
            add(months, `${sim.id} ${day.slice(0, 7)}-01`, f);
          }
          expect(taken).toBe(known);
          expect(aside).toBe(first.size - known);
          const read = async (sql: string) =>
            new Map(
              (await em.execute(sql)).map((r) => [
                `${r.sim_id} ${String(r.k)}`,
                { up: num(r.up), down: num(r.down), n: num(r.n) },
              ]),
            );
          expect(
            await read(`select sim_id, day as k, bytes_up as up, bytes_down as down, records as n from usage_day`),
          ).toEqual(days);
          expect(
            await read(`select sim_id, month as k, bytes_up as up, bytes_down as down, records as n from usage_month`),
          ).toEqual(months);
          // And the database's own raw records say the same.
          expect(
            await read(`select sim_id, (start at time zone 'Europe/Stockholm')::date as k, sum(bytes_up) as up,
            sum(bytes_down) as down, count(*) as n from usage_record group by 1, 2`),
          ).toEqual(days);
          // The company's days by plan (and country) hold the same records.
          expect(
            await read(`select rate_plan_id as sim_id, day as k, sum(bytes_up) as up, sum(bytes_down) as down,
            sum(records) as n from usage_company_day group by 1, 2`),
          ).toEqual(
            await read(`select s.rate_plan_id as sim_id, (r.start at time zone 'Europe/Stockholm')::date as k,
            sum(r.bytes_up) as up, sum(r.bytes_down) as down, count(*) as n
            from usage_record r join sim s on s.id = r.sim_id group by 1, 2`),
          );
          // The company's days by tag: each record under every tag its SIM has (the tags were set before).
          expect(
            await read(`select tag as sim_id, day as k, bytes_up as up, bytes_down as down, records as n
            from usage_tag_day`),
          ).toEqual(
            await read(`select t.tag as sim_id, (r.start at time zone 'Europe/Stockholm')::date as k,
            sum(r.bytes_up) as up, sum(r.bytes_down) as down, count(*) as n
            from usage_record r join sim_tag t on t.company_id = r.company_id and t.sim_id = r.sim_id group by 1, 2`),
          );
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
