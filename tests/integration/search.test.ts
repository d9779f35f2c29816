// The list's search finds exactly what plain ILIKE found (any part of the ICCID, the mark, the comment or
// the plan description, case-insensitive, the user's % _ \ taken literally), now through trigram indexes and a
// digits lookup; the counts (exact, or "more than" past the cap) and the deep pages (found through the daily
// counts) equal counting and offset walking. On both databases (DATABASE_URL: PostgreSQL; else PGlite).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan, Sim } from '#server/db/entities.ts';
import { migrate, type Em } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { listSimBatches, listSims } from '#server/sims/list.ts';
import { SEARCH_COUNT_CAP } from '#server/sims/search.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const db = useFreshOrm();
const em = () => db.orm.em.fork();

/** The search as it was before the fleet-scale indexes, the oracle: four ILIKE, no index can serve them. */
const ORACLE = `select s.id from sim s join rate_plan r on r.id = s.rate_plan_id
  where s.company_id = ? and s.status = 'active'
    and (s.iccid ilike ? or s.invoice_line_mark ilike ? or s.invoice_line_note ilike ? or r.description ilike ?)
  order by s.activated_at desc, s.id desc`;
const oracle = async (e: Em, companyId: number, q: string) => {
  const like = `%${q.trim().replace(/[\\%_]/g, (c) => '\\' + c)}%`;
  const rows = await e.execute<{ id: number }[]>(ORACLE, [companyId, like, like, like, like]);
  return rows.map((r) => Number(r.id));
};

/** A small deterministic PRNG, so a failure can be run again as it was. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const WORDS = ['Lastbil', 'mätare', 'KASSA', 'Larm', 'skåp', 'Våg', 'ÅÄÖ', 'åäö', 'Øre', 'Straße', 'norr', 'Söder'];
const ODD = ['%', '_', '\\', '50%', 'a_b', 'c\\d', '\\%', ' ', '  '];

let company: number;
let other: number;
const values: string[] = [];

beforeAll(async () => {
  await migrate(db.orm);
  const e = em();
  await seedDemo(e);
  const plans = await e.find(RatePlan, {}, { orderBy: { id: 'asc' } });
  const c = e.create(Company, { name: 'Sök AB', customerNumber: 'SOK-1', invoiceNote: '' });
  const o = e.create(Company, { name: 'Annat AB', customerNumber: 'SOK-2', invoiceNote: '' });
  await e.flush();
  company = c.id;
  other = o.id;
  const rnd = prng(25);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  const text = () =>
    Array.from({ length: Math.floor(rnd() * 4) }, () =>
      rnd() < 0.7 ? pick(WORDS) : rnd() < 0.5 ? pick(ODD) : digits(1 + Math.floor(rnd() * 6)),
    ).join(rnd() < 0.8 ? ' ' : '');
  const base = Date.now() - 400 * 86_400_000;
  for (let i = 0; i < 600; i++) {
    const iccid = (rnd() < 0.8 ? '8946' : '89') + digits(rnd() < 0.5 ? 15 : 16);
    const mark = text().slice(0, 200);
    const note = (rnd() < 0.4 ? text() : '').slice(0, 200);
    e.create(Sim, {
      iccid,
      company: i % 5 === 4 ? other : company,
      ratePlan: pick(plans),
      invoiceLineMark: mark,
      invoiceLineNote: note,
      status: rnd() < 0.9 ? 'active' : 'deactivated',
      // Over about a year, some on the same second.
      activatedAt: new Date(base + Math.floor(rnd() * 400) * 86_400_000 + Math.floor(rnd() * 3) * 1000),
    });
    values.push(iccid, mark, note);
  }
  for (const p of plans) values.push(p.description);
  await e.flush();
});

/** A query: a piece of a stored value (in another case, perhaps), or random text of digits, letters and % _ \. */
const query = fc.oneof(
  fc.tuple(fc.nat(), fc.nat({ max: 25 }), fc.nat({ max: 25 }), fc.boolean()).map(([i, from, len, upper]) => {
    const v = values[i % values.length]!;
    const piece = v.slice(Math.min(from, v.length), Math.min(from, v.length) + len);
    return upper ? piece.toUpperCase() : piece.toLowerCase();
  }),
  fc.string({ unit: fc.constantFrom(...'0123456789aäåöÅÄÖbsS%_\\ ßø'.split('')), maxLength: 12 }),
  fc.stringMatching(/^\d{4,20}$/),
);

describe('the search finds what plain ILIKE finds', () => {
  it('the same SIMs in the same order, and the same count, for random queries', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const e = em();
        const expected = await oracle(e, company, q);
        const got = await listSims(e, company, { q, limit: 10_000, offset: 0, withTotal: true });
        expect(got.items.map((s) => s.id)).toEqual(expected);
        expect(got).toMatchObject({ total: expected.length, exact: true });
        // A page in the middle is the same slice, with its count (one statement) and without.
        const page = await listSims(e, company, { q, limit: 7, offset: 5 });
        expect(page.items.map((s) => s.id)).toEqual(expected.slice(5, 12));
        // Both forms a search may take (the probe picks one by density), each with its count.
        for (const form of ['walk', 'bitmap'] as const) {
          const counted = await listSims(e, company, { q, limit: 7, offset: 5, withTotal: true, form });
          expect(
            counted.items.map((s) => s.id),
            form,
          ).toEqual(expected.slice(5, 12));
          expect(counted, form).toMatchObject({ total: expected.length, exact: true });
          const all = await listSims(e, company, { q, limit: 10_000, offset: 0, form });
          expect(
            all.items.map((s) => s.id),
            form,
          ).toEqual(expected);
          // The list export reads the same rows in batches (keyset), in the same form.
          const batches: number[] = [];
          for await (const b of listSimBatches(e, company, { q, batchSize: 37, form }))
            batches.push(...b.map((x) => x.id));
          expect(batches, `export ${form}`).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
    // 300 random queries, each read nine ways: about 40 s on PGlite alone, more on a loaded machine. A bound on a
    // hang, not a speed target.
  }, 240_000);

  it('never finds another company’s SIMs', async () => {
    const e = em();
    const theirs = await e.find(Sim, { company: other, status: 'active' }, { limit: 20 });
    for (const s of theirs) {
      const got = await listSims(e, company, { q: s.iccid, limit: 50 });
      expect(got.items.map((x) => x.iccid)).not.toContain(s.iccid);
    }
  });
});

describe('counts and deep pages at a few thousand SIMs', () => {
  let big: number;
  beforeAll(async () => {
    const e = em();
    const c = e.create(Company, { name: 'Stor AB', customerNumber: 'SOK-3', invoiceNote: '' });
    await e.flush();
    big = c.id;
    const plan = await e.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    // 4,500 SIMs over 30 days (150 a day, some on the same instant), in one statement (the daily counts'
    // trigger sees them all at once), then some more one by one.
    await e.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8947' || lpad(g::text, 16, '0'), ?, ?, 'Mätare ' || (g % 7), '', 'active',
         now() - (g % 30) * interval '1 day' - (g % 50) * interval '1 second'
       from generate_series(1, 4500) g`,
      [big, plan.id],
    );
    for (let i = 0; i < 5; i++)
      await e.execute(
        `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, status, activated_at)
         values (?, ?, ?, 'Ny', 'active', now())`,
        [`8948${String(i).padStart(16, '0')}`, big, plan.id],
      );
  });

  const walk = async (companyId: number, offset: number, limit: number) =>
    (
      await em().execute<{ id: number }[]>(
        `select id from sim s where company_id = ? and status = 'active'
         order by activated_at desc, id desc limit ? offset ?`,
        [companyId, limit, offset],
      )
    ).map((r) => Number(r.id));
  const actual = async (companyId: number) =>
    Number(
      (
        await em().execute<{ n: number }[]>(
          `select count(*)::int as n from sim where company_id = ? and status = 'active'`,
          [companyId],
        )
      )[0]!.n,
    );

  it('gives the whole list’s exact total and every page, deep ones too, as an offset walk does', async () => {
    const total = await actual(big);
    expect(total).toBe(4505);
    for (const offset of [0, 50, 1950, 2000, 2050, 3333, 4450, 4500, 4505, 9000]) {
      const got = await listSims(em(), big, { limit: 50, offset, withTotal: true });
      expect(
        got.items.map((s) => s.id),
        `offset ${offset}`,
      ).toEqual(await walk(big, offset, 50));
      expect(got).toMatchObject({ total, exact: true });
    }
  });

  it('keeps the total true through deactivation, reactivation, moves between companies and deletes', async () => {
    const e = em();
    await e.execute(
      `update sim set status = 'deactivated', deactivated_at = now() where company_id = ? and id % 9 = 0`,
      [big],
    );
    await e.execute(`update sim set invoice_line_mark = 'Ändrad' where company_id = ? and id % 5 = 0`, [big]);
    await e.execute(`update sim set company_id = ? where company_id = ? and id % 11 = 0 and status = 'active'`, [
      other,
      big,
    ]);
    await e.execute(`delete from sim_event where sim_id in (select id from sim where company_id = ? and id % 13 = 0)`, [
      big,
    ]);
    await e.execute(`delete from sim where company_id = ? and id % 13 = 0`, [big]);
    for (const id of [big, other]) {
      const got = await listSims(em(), id, { limit: 50, offset: 2100, withTotal: true });
      expect(got.total).toBe(await actual(id));
      expect(got.items.map((s) => s.id)).toEqual(await walk(id, 2100, 50));
    }
  });

  it('counts a search up to the cap, then says "more than" (never a number it did not count)', async () => {
    const many = await listSims(em(), big, { q: 'mätare', limit: 50, offset: 0, withTotal: true });
    expect(many).toMatchObject({ total: SEARCH_COUNT_CAP, exact: false });
    expect(many.items).toHaveLength(50);
    const few = await listSims(em(), big, { q: 'Ny', limit: 50, offset: 0, withTotal: true });
    expect(few).toMatchObject({ total: (await oracle(em(), big, 'Ny')).length, exact: true });
    expect(few.total).toBeGreaterThan(0);
    // Deep pages of a search past the cap are still the right rows.
    const deep = await listSims(em(), big, { q: 'mätare 3', limit: 20, offset: 400 });
    const expected = await oracle(em(), big, 'mätare 3');
    expect(deep.items.map((s) => s.id)).toEqual(expected.slice(400, 420));
  });
});
