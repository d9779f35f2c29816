// Long: one seeded history (130 events, ties of time) and trail read through the procedures and their plans; split, each part would seed it again.
// History and trails at scale, through createCaller: a SIM's history bounded to its newest events with
// older ones paged by keyset (also through ties of time), and the super admin's audit (admin.audit): only super
// admins, every company's rows newest first, keyset pages that neither skip nor repeat, filters by kind and company.
// On PostgreSQL the plans are read too: each read is a walk of its index, never a sort of the whole history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditEvent, Company, Sim } from '#server/db/entities.ts';
import { HISTORY_PAGE } from '#server/sims/read.ts';
import { AUDIT_KINDS } from '#domain/companies/kinds.ts';
import { callerFor, startServices } from '#tests/helpers/caller.ts';
import { needs } from '#tests/helpers/needs.ts';

let started: Awaited<ReturnType<typeof startServices>>;
let demo: Company;
let other: Company;
/** A SIM of Demo AB with 130 events (some at one and the same moment), and one of the other company. */
let busy: Sim;
let foreign: Sim;
const EVENTS = 130;

const em = () => started.services.orm.em.fork();

beforeAll(async () => {
  started = await startServices();
  const e = em();
  demo = await e.findOneOrFail(Company, { customerNumber: '100001' });
  const admin = await callerFor(started.services, 'admin@demo.test');
  await admin.admin.createCompany({ name: 'Andra AB', customerNumber: 'ANDRA-1' });
  other = await e.findOneOrFail(Company, { customerNumber: 'ANDRA-1' });
  busy = await e.findOneOrFail(Sim, { company: demo.id, status: 'active' }, { orderBy: { id: 'asc' } });
  // The other company's SIM: a copy of one of Demo AB's under another ICCID.
  await e.execute(
    `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
     select '89469999999999999990', ?, rate_plan_id, '', '', 'active', now() from sim where id = ?`,
    [other.id, busy.id],
  );
  foreign = await e.findOneOrFail(Sim, { iccid: '89469999999999999990' });
  await e.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, after)
     select ?, 'activated', rate_plan_id, now(), '{}'::jsonb from sim where id = ?`,
    [foreign.id, foreign.id],
  );
  // Demo AB's SIM: events a minute apart, every tenth pair at one moment (the keyset's tie-break is the id).
  await e.execute(`delete from sim_event where sim_id = ?`, [busy.id]);
  await e.execute(
    `insert into sim_event (sim_id, kind, rate_plan_id, at, before, after)
     select ?, case when g = 1 then 'activated' else 'updated' end, (select rate_plan_id from sim where id = ?),
       timestamptz '2026-01-01 00:00:00+00' + ((g - (g % 10 = 1)::int) * interval '1 minute'),
       jsonb_build_object('invoiceLineMark', 'M' || (g - 1)), jsonb_build_object('invoiceLineMark', 'M' || g)
     from generate_series(1, ?) g`,
    [busy.id, busy.id, EVENTS],
  );
  // Audit rows of both companies, of several kinds (beside the seed's and the company creation's).
  await e.execute(
    `insert into audit_event (company_id, kind, action, target_type, target_id, after, at)
     select case when g % 3 = 0 then ? else ? end, (?::text[])[1 + g % 5], 'simActivated', 'Sim', g::text,
       jsonb_build_object('iccid', 'ICCID-' || g, 'by', 'cli'), now()
     from generate_series(1, 240) g`,
    [other.id, demo.id, `{simActivated,simUpdated,user,apiKey,webhook}`],
  );
});
afterAll(() => started?.stop());

describe('a SIM history', () => {
  it('GET /api/sim/{id} and the page get the newest events only', async () => {
    const ella = await callerFor(started.services, 'ella@demo.test');
    const sim = await ella.sim.byId({ id: busy.id });
    expect(HISTORY_PAGE).toBe(50);
    expect(sim.history).toHaveLength(HISTORY_PAGE);
    // Newest first; the API's items are as before (no id).
    expect(sim.history[0]).toEqual({
      kind: 'updated',
      at: expect.any(String),
      by: null,
      before: { invoiceLineMark: `M${EVENTS - 1}` },
      after: { invoiceLineMark: `M${EVENTS}` },
    });
    expect(sim.history.map((h) => h.after?.invoiceLineMark)).toEqual(
      Array.from({ length: HISTORY_PAGE }, (_, i) => `M${EVENTS - i}`),
    );
  });

  it('pages older events by keyset: every event once, in order, through ties of time', async () => {
    const ella = await callerFor(started.services, 'ella@demo.test');
    const seen: string[] = [];
    let before: number | undefined;
    let pages = 0;
    for (;;) {
      const page = await ella.sim.history({ id: busy.id, before });
      pages++;
      expect(page.items.length).toBeLessThanOrEqual(HISTORY_PAGE);
      seen.push(...page.items.map((h) => String(h.after?.invoiceLineMark)));
      if (page.nextBefore === null) break;
      expect(page.nextBefore).toBe(page.items.at(-1)!.id);
      before = page.nextBefore;
    }
    expect(pages).toBe(Math.ceil(EVENTS / HISTORY_PAGE));
    // The order of the whole history: time, then id, newest first (M1 the activation, oldest).
    const order = await em().execute<Array<{ m: string }>>(
      `select after->>'invoiceLineMark' as m from sim_event where sim_id = ? order by at desc, id desc`,
      [busy.id],
    );
    expect(seen).toEqual(order.map((r) => r.m));
    expect(new Set(seen).size).toBe(EVENTS);
  });

  it('the SIM page reads the SIM and a page of its history in one call (sim.detail)', async () => {
    const ella = await callerFor(started.services, 'ella@demo.test');
    const { history: _history, usage: _usage, ...sim } = await ella.sim.byId({ id: busy.id });
    const first = await ella.sim.history({ id: busy.id });
    expect(await ella.sim.detail({ id: busy.id })).toEqual({ sim, history: first });
    const older = await ella.sim.history({ id: busy.id, before: first.nextBefore! });
    expect(await ella.sim.detail({ id: busy.id, before: first.nextBefore! })).toEqual({ sim, history: older });
    await expect(ella.sim.detail({ id: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("is the company's own: another company's SIM is not found, another SIM's event marks nothing", async () => {
    const ella = await callerFor(started.services, 'ella@demo.test');
    await expect(ella.sim.history({ id: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ella.sim.byId({ id: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const [mark] = await em().execute<Array<{ id: number }>>(`select id from sim_event where sim_id = ?`, [foreign.id]);
    expect(await ella.sim.history({ id: busy.id, before: Number(mark!.id) })).toEqual({ items: [], nextBefore: null });
  });
});

describe('the admin audit (admin.audit, GET /api/admin/audit)', () => {
  it('is for super admins only: an owner, a member and support acting as a company get 403 on other doors too', async () => {
    for (const email of ['ella@demo.test', 'anna@demo.test']) {
      const c = await callerFor(started.services, email);
      await expect(c.admin.audit({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    await expect((await callerFor(started.services, null)).admin.audit({})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('lists every company newest first and pages by keyset without gaps or repeats', async () => {
    const admin = await callerFor(started.services, 'admin@demo.test');
    const all = await em().execute<Array<{ id: number }>>(`select id from audit_event order by id desc`);
    const ids: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await admin.admin.audit({ before, limit: 40 });
      ids.push(...page.items.map((i) => i.id));
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    expect(ids).toEqual(all.map((r) => Number(r.id)));
    const first = await admin.admin.audit({});
    expect(first.items).toHaveLength(50);
    expect(first.company).toBeNull();
    const row = first.items.find((i) => i.company?.id === other.id)!;
    expect(row).toMatchObject({
      kind: expect.any(String),
      who: 'Systemet (kommandoraden)',
      company: { id: other.id, name: 'Andra AB', customerNumber: 'ANDRA-1' },
    });
    expect(row.what).toMatch(/^Aktiverade ICCID-\d+$/);
  });

  it('filters by kind, by company (id or customer number) and both, paging within the filter', async () => {
    const admin = await callerFor(started.services, 'admin@demo.test');
    for (const kind of AUDIT_KINDS) {
      const want = await em().execute<Array<{ id: number }>>(
        `select id from audit_event where kind = ? order by id desc`,
        [kind],
      );
      const got: number[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await admin.admin.audit({ kind, before, limit: 7 });
        expect(page.items.every((i) => i.kind === kind)).toBe(true);
        got.push(...page.items.map((i) => i.id));
        if (page.nextBefore === null) break;
        before = page.nextBefore;
      }
      expect(got).toEqual(want.map((r) => Number(r.id)));
    }
    const byNumber = await admin.admin.audit({ customerNumber: ' ANDRA-1 ' });
    expect(byNumber.company).toEqual({ id: other.id, name: 'Andra AB', customerNumber: 'ANDRA-1' });
    const otherCount = await em().count(AuditEvent, { company: other.id });
    expect(byNumber.items).toHaveLength(Math.min(50, otherCount));
    expect(byNumber.items.every((i) => i.company?.id === other.id)).toBe(true);
    const both = await admin.admin.audit({ companyId: demo.id, kind: 'user' });
    expect(both.items.length).toBeGreaterThan(0);
    expect(both.items.every((i) => i.company?.id === demo.id && i.kind === 'user')).toBe(true);
    // An unknown company is refused next to the field that named it.
    await expect(admin.admin.audit({ customerNumber: 'FINNS-INTE' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'Inget företag har kundnumret ”FINNS-INTE”.',
    });
    await expect(admin.admin.audit({ companyId: 999_999 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(admin.admin.audit({ limit: 51 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

needs(describe, 'PostgreSQL')('the plans (PostgreSQL)', () => {
  /** The plan's node lines, with the other ways than an index walk priced out (what the index can serve). */
  async function plan(sql: string, params: unknown[]): Promise<string> {
    return em().transactional(async (tx) => {
      await tx.execute(`set local enable_seqscan = off`);
      await tx.execute(`set local enable_bitmapscan = off`);
      const rows = await tx.execute<Array<{ 'QUERY PLAN': string }>>(`explain ${sql}`, params);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it("walks sim_event_sim_at_index for a page of history under sim_history's own settings: no sort of the SIM's events, also as a generic plan", async () => {
    // The function's two statements (the newest page, an older one) and its settings, as the database holds them.
    const [fn] = await em().execute<Array<{ src: string; config: string[] }>>(
      `select prosrc as src, proconfig as config from pg_proc where proname = 'sim_history'`,
    );
    expect(fn?.config).toEqual(['enable_bitmapscan=off', 'enable_seqscan=off']);
    const statements = [...(fn?.src ?? '').matchAll(/return query ([\s\S]*?);/g)].map((m) =>
      String(m[1])
        .replace(/\bp_company\b/g, '$1')
        .replace(/\bp_sim\b/g, '$2')
        .replace(/\bp_before\b/g, '$3')
        .replace(/\bp_limit\b/g, '$4'),
    );
    expect(statements).toHaveLength(2);
    for (const generic of [false, true])
      for (const [i, sql] of statements.entries()) {
        const text = await em().transactional(async (tx) => {
          // As the function runs it (its settings), and as a generic plan (parameters unknown: a few events a SIM).
          for (const setting of fn?.config ?? []) {
            const [name, value] = setting.split('=');
            await tx.execute(`select set_config(?, ?, true)`, [name, value]);
          }
          await tx.execute(`set local plan_cache_mode = ${generic ? 'force_generic_plan' : 'force_custom_plan'}`);
          const name = `h${generic ? 'g' : 'c'}${i}`;
          await tx.execute(`prepare ${name}(int, int, int, int) as ${sql}`);
          const rows = await tx.execute<Array<{ 'QUERY PLAN': string }>>(
            `explain execute ${name}(${demo.id}, ${busy.id}, ${i === 0 ? 'null' : 1}, ${HISTORY_PAGE + 1})`,
          );
          await tx.execute(`deallocate ${name}`);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        // The page is cut (Limit) on the index walk, with no sort or bitmap under it; only the page's rows are
        // sorted after the joins.
        const cut = text.slice(text.indexOf('Limit'));
        expect(cut).toMatch(/Index Scan using sim_event_sim_at_index on sim_event e\b/);
        expect(cut).not.toMatch(/Sort|Bitmap/);
      }
  });

  it('walks an index in id order for a trail of a kind, of a company and of both, with no sort', async () => {
    const trail = (where: string) =>
      `select e.id from audit_event e where ${where} and e.id < 1000000 order by e.id desc limit 51`;
    // Which of the two kind indexes a company's kind takes depends on the statistics; either finds the kind's rows
    // by the index condition (a rare kind is never looked for row by row in the whole trail).
    const cases: Array<[string, unknown[], RegExp]> = [
      [trail('e.kind = ?'), ['webhook'], /audit_event_kind_index/],
      [trail('e.company_id = ? and e.kind = ?'), [demo.id, 'webhook'], /audit_event_(company_)?kind_index/],
    ];
    for (const [sql, params, index] of cases) {
      const text = await plan(sql, params);
      expect(text).toMatch(index);
      expect(text).toMatch(/Index Cond: \(.*kind = 'webhook'/);
      expect(text).not.toMatch(/\bSort\b/);
    }
  });
});
