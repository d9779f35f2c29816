// The list filtered by tags (issue 40) finds exactly what a plain query of sim_tag finds, in the list's order, in
// every form a search may take (the walk of the list's index, the bitmap through sim_tag's index, and the form the
// probe picks), alone and with a text search, with one tag and with two (a SIM must have both); the probe walks a
// tag most SIMs have and takes the bitmap for a rare one; another company's SIMs and tags never come in; the list
// export's batches are the same rows; the same with the paused state (`status`: active or paused SIMs only). A text
// with tags also in the bitmap's sorted form (the text's candidates in order, their tags checked until the page's
// hits are found), which the list takes unless a tag is rare. On both databases (DATABASE_URL: PostgreSQL; else PGlite).
import { beforeAll, describe, expect, it } from 'vitest';
import { Company, RatePlan } from '#server/db/entities.ts';
import { migrate, type Em } from '#server/db/orm.ts';
import { listSimBatches, listSims } from '#server/sims/list.ts';
import { listFilter, searchForm, takesSorted } from '#server/sims/search.ts';
import { changeTags } from '#server/sims/tags.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const db = useFreshOrm();
const em = () => db.orm.em.fork();
const SIMS = 3_000;

/** The oracle: the company's active SIMs with every tag, in the list's order, by a plain query. */
async function oracle(
  e: Em,
  companyId: number,
  tags: string[],
  mark?: string,
  status?: 'active' | 'paused',
): Promise<number[]> {
  const rows = await e.execute<{ id: number }[]>(
    `select s.id from sim s where s.company_id = ? and s.status = 'active'
       and (select count(distinct t.tag) from sim_tag t where t.company_id = s.company_id and t.sim_id = s.id
             and t.tag = any(?::text[])) = ?
       ${mark ? `and s.invoice_line_mark ilike ?` : ''}
       ${status === 'paused' ? 'and s.paused_at is not null' : status === 'active' ? 'and s.paused_at is null' : ''}
     order by s.activated_at desc, s.id desc`,
    [companyId, `{${tags.map((t) => `"${t}"`).join(',')}}`, tags.length, ...(mark ? [`%${mark}%`] : [])],
  );
  return rows.map((r) => Number(r.id));
}

let company: number;
let other: number;
let large: number;
/** SIMs of the large company, all with the tag "Alla": past the count where a tag is no longer rare (5,000). */
const LARGE = 5_200;

beforeAll(async () => {
  await migrate(db.orm);
  const e = em();
  const plan = e.create(RatePlan, {
    code: 'TAG-1',
    description: 'Data 1 GB',
    dataLimit: 1000,
    call: false,
    sms: false,
    roaming: false,
    isLegacy: false,
  });
  const c = e.create(Company, { name: 'Tagg AB', customerNumber: 'TAG-1', invoiceNote: '' });
  const o = e.create(Company, { name: 'Annat AB', customerNumber: 'TAG-2', invoiceNote: '' });
  const l = e.create(Company, { name: 'Stor AB', customerNumber: 'TAG-3', invoiceNote: '' });
  await e.flush();
  company = c.id;
  other = o.id;
  large = l.id;
  await e.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '8949' || lpad(g::text, 16, '0'), ?, ?, 'Bil ' || g, '', 'active', now() - g * interval '1 minute'
       from generate_series(1, ${LARGE}) g`,
    [large, plan.id],
  );
  await changeTags(e, large, { q: '', add: ['Alla'], remove: [] });
  // 3,000 SIMs over 30 days, some on the same instant; a few deactivated.
  for (const [id, prefix] of [
    [company, '8947'],
    [other, '8948'],
  ] as const)
    await e.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select ? || lpad(g::text, 16, '0'), ?, ?, case when g % 3 = 0 then 'Kyl ' || g else 'Lager ' || g end, '',
         case when g % 97 = 0 then 'deactivated' else 'active' end,
         now() - (g % 30) * interval '1 day' - (g % 50) * interval '1 second'
       from generate_series(1, ${SIMS}) g`,
      [prefix, id, plan.id],
    );
  const ids = async (companyId: number, where: string) =>
    (
      await e.execute<{ id: number }[]>(`select id from sim where company_id = ? and ${where} order by id`, [companyId])
    ).map((r) => Number(r.id));
  const all = await ids(company, `status = 'active'`);
  // "Vanlig": nine SIMs of ten; "Sällsynt": the oldest dozen (a walk from the newest would pass every SIM first).
  const common = all.filter((_, i) => i % 10 !== 0);
  const oldest = await ids(company, `status = 'active' and activated_at < now() - interval '29 days'`);
  for (let i = 0; i < common.length; i += 10_000)
    await changeTags(e, company, { ids: common.slice(i, i + 10_000), add: ['Vanlig'], remove: [] });
  await changeTags(e, company, { ids: oldest.slice(0, 12), add: ['Sällsynt'], remove: [] });
  // Paused (issue 40): one SIM of eleven, and the rare tag's oldest six; the other company's all.
  await e.execute(
    `update sim set paused_at = now() where status = 'active'
       and ((company_id = ? and (id % 11 = 0 or id = any(?::int[]))) or company_id = ?)`,
    [company, `{${oldest.slice(0, 6).join(',')}}`, other],
  );
  // The other company: its own "Vanlig" on every SIM.
  await changeTags(e, other, { q: '', add: ['Vanlig', 'Sällsynt'], remove: [] });
});

const cases: Array<{ name: string; tags: string[]; q?: string; status?: 'active' | 'paused' }> = [
  { name: 'a tag most SIMs have', tags: ['Vanlig'] },
  { name: 'a rare tag on the oldest SIMs', tags: ['Sällsynt'] },
  { name: 'two tags (both)', tags: ['Vanlig', 'Sällsynt'] },
  { name: 'a tag and a text search', tags: ['Vanlig'], q: 'kyl' },
  { name: 'a tag nobody has', tags: ['Finns inte'] },
  { name: 'paused SIMs (one of eleven)', tags: [], status: 'paused' },
  { name: 'active SIMs with a text search', tags: [], q: 'kyl', status: 'active' },
  { name: 'paused SIMs with a rare tag', tags: ['Sällsynt'], status: 'paused' },
  { name: 'paused SIMs with a tag and a text search', tags: ['Vanlig'], q: 'lager', status: 'paused' },
];

describe('the list by tag', () => {
  for (const c of cases)
    it(`finds what the oracle finds, in every form: ${c.name}`, async () => {
      const e = em();
      const want = await oracle(e, company, c.tags, c.q, c.status);
      const by = { q: c.q, tag: c.tags, status: c.status };
      for (const form of ['walk', 'bitmap', 'sorted', undefined] as const) {
        const first = await listSims(e, company, { ...by, limit: 50, offset: 0, withTotal: true, form });
        expect(first.items.map((s) => s.id)).toEqual(want.slice(0, 50));
        expect(first.total).toBe(Math.min(want.length, 1000));
        expect(first.exact).toBe(want.length <= 1000);
        const deep = await listSims(e, company, { ...by, limit: 50, offset: 500, form });
        for (const s of first.items) expect(s.status).toBe(c.status ?? s.status);
        expect(deep.items.map((s) => s.id)).toEqual(want.slice(500, 550));
      }
      const batches: number[] = [];
      for await (const batch of listSimBatches(e, company, { ...by, batchSize: 700 }))
        batches.push(...batch.map((s) => s.id));
      expect(batches).toEqual(want);
    });

  it('walks the list for a tag most SIMs have and takes the tag’s index for a rare one', async () => {
    const e = em();
    expect(await searchForm(e, await listFilter(e, company, undefined, ['Vanlig']))).toBe('walk');
    expect(await searchForm(e, await listFilter(e, company, undefined, ['Sällsynt']))).toBe('bitmap');
    // Paused SIMs, few among the newest: through their own partial index.
    expect(await searchForm(e, await listFilter(e, company, undefined, ['Sällsynt'], 'paused'))).toBe('bitmap');
  });

  it('takes the sorted form for a text with tags that none is rare of, and gives what the oracle gives', async () => {
    const e = em();
    const filter = await listFilter(e, large, 'Bil 1', ['Alla']);
    expect(await takesSorted(e, large, filter)).toBe(true);
    // A rare tag beside it (the other company's "Vanlig" is not this one's): from the tag's SIMs.
    expect(await takesSorted(e, large, await listFilter(e, large, 'Bil 1', ['Alla', 'Vanlig']))).toBe(false);
    // The company of 3,000: every tag rare; no text: no sorted form.
    expect(await takesSorted(e, company, await listFilter(e, company, 'kyl', ['Vanlig']))).toBe(false);
    expect(await takesSorted(e, large, await listFilter(e, large, undefined, ['Alla']))).toBe(false);
    const want = await oracle(e, large, ['Alla'], 'Bil 1');
    for (const form of ['sorted', undefined] as const) {
      const first = await listSims(e, large, {
        q: 'Bil 1',
        tag: ['Alla'],
        limit: 50,
        offset: 0,
        withTotal: true,
        form,
      });
      expect(first.items.map((s) => s.id)).toEqual(want.slice(0, 50));
      expect(first.total).toBe(Math.min(want.length, 1000));
      const later = await listSims(e, large, {
        q: 'Bil 1',
        tag: ['Alla'],
        limit: 50,
        offset: 950,
        withTotal: true,
        form,
      });
      expect(later.items.map((s) => s.id)).toEqual(want.slice(950, 1000));
    }
  });

  it('never lists another company’s SIMs, whatever their tags', async () => {
    const e = em();
    const mine = new Set(await oracle(e, company, []));
    const got = await listSims(e, company, { tag: ['Vanlig'], limit: 1000 });
    for (const s of got.items) expect(mine.has(s.id)).toBe(true);
  });
});
