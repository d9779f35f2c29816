// Tags on PostgreSQL under faults (issue 40): the connection cut inside the one statement that tags every SIM of a
// 20,000-SIM search leaves none tagged, and the retry tags each once; a rename cut in its last statement (the usage
// by day moving with the tag) leaves the tag as it was on every SIM and in the usage; two processes tagging the same
// search at once give each SIM the tag once. The cut is made where the work is: a statement trigger that sleeps, and
// pg_terminate_backend from another connection, as a failing database would (tests/helpers/faults.ts).
import { describe, expect, it } from 'vitest';
import { Company } from '#server/db/entities.ts';
import { initOrm } from '#server/db/orm.ts';
import { changeTags, renameTag } from '#server/sims/tags.ts';
import { cutInside } from '#tests/helpers/faults.ts';
import { needs } from '#tests/helpers/needs.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';
import { num } from '#tests/helpers/usage.ts';

const db = useDemoOrm();
const SIMS = 20_000;
const MARK = 'Felprov';

needs(describe, 'PostgreSQL')('tags under faults (PostgreSQL)', () => {
  let company = 0;
  const tagged = async (tag: string) => {
    const [r] = await db.orm.em
      .fork()
      .execute('select count(*) as n, count(distinct sim_id) as sims from sim_tag where company_id = ? and tag = ?', [
        company,
        tag,
      ]);
    return { rows: num(r?.n), sims: num(r?.sims) };
  };

  it(`a cut inside the tagging of a ${SIMS.toLocaleString('en')}-SIM search leaves none tagged; the retry tags each once`, async () => {
    const em = db.orm.em.fork();
    company = (await em.findOneOrFail(Company, { customerNumber: '100001' })).id;
    await em.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select '8946596' || lpad(g::text, 13, '0'), ?, (select id from rate_plan where not is_legacy order by id limit 1),
              ? || ' ' || g, '', 'active', now()
         from generate_series(1, ?) g`,
      [company, MARK, SIMS],
    );
    const search = { q: MARK, add: ['Avbruten'], remove: [] };
    expect(await cutInside(db.orm, 'sim_tag', () => changeTags(db.orm.em.fork(), company, search))).toBeInstanceOf(
      Error,
    );
    expect(await tagged('Avbruten')).toEqual({ rows: 0, sims: 0 });
    expect(await changeTags(db.orm.em.fork(), company, search)).toEqual({ changed: SIMS, full: 0 });
    expect(await changeTags(db.orm.em.fork(), company, search)).toEqual({ changed: 0, full: 0 });
    expect(await tagged('Avbruten')).toEqual({ rows: SIMS, sims: SIMS });
  });

  it('a rename cut in its last statement leaves the tag and its usage as they were; the retry moves both', async () => {
    const em = db.orm.em.fork();
    await em.execute(
      `insert into usage_tag_day (company_id, tag, day, bytes_up, bytes_down, records)
       values (?, 'Avbruten', '2026-11-01', 10, 20, 1), (?, 'Avbruten', '2026-11-02', 30, 40, 1)`,
      [company, company],
    );
    const usage = async (tag: string) => {
      const [r] = await db.orm.em
        .fork()
        .execute(
          'select coalesce(sum(bytes_up + bytes_down), 0) as b from usage_tag_day where company_id = ? and tag = ?',
          [company, tag],
        );
      return num(r?.b);
    };
    const failed = await cutInside(db.orm, 'usage_tag_day', () =>
      renameTag(db.orm.em.fork(), company, 'Avbruten', 'Hel'),
    );
    expect(failed).toBeInstanceOf(Error);
    expect(await tagged('Avbruten')).toEqual({ rows: SIMS, sims: SIMS });
    expect(await tagged('Hel')).toEqual({ rows: 0, sims: 0 });
    expect([await usage('Avbruten'), await usage('Hel')]).toEqual([100, 0]);
    expect(await renameTag(db.orm.em.fork(), company, 'Avbruten', 'Hel')).toBe(SIMS);
    expect(await tagged('Hel')).toEqual({ rows: SIMS, sims: SIMS });
    expect([await usage('Avbruten'), await usage('Hel')]).toEqual([0, 100]);
  });

  it('two processes tagging the same search at once give each SIM the tag once', async () => {
    const other = await initOrm({ kind: 'postgres', url: String(db.orm.config.get('clientUrl')) });
    try {
      const search = { q: MARK, add: ['Samtidig'], remove: [] };
      const [a, b] = await Promise.all([
        changeTags(db.orm.em.fork(), company, search),
        changeTags(other.em.fork(), company, search),
      ]);
      // Each SIM counted by the one whose insert took it (the other's did nothing for it).
      expect(a.changed + b.changed).toBe(SIMS);
      expect(await tagged('Samtidig')).toEqual({ rows: SIMS, sims: SIMS });
    } finally {
      await other.close(true);
    }
  });
});
