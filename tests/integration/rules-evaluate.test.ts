// Long: the rules' evaluation end to end on a real database: usage, silence, pause, webhooks, digests, two at once.
// What the rules do (issue 40, server/rules/): a usage rule fires in the ingest batch that crosses its threshold
// (80 % and 100 % in one batch, the records out of order and late), once per SIM and period (a batch sent again, two
// instances ingesting the same batch at once, a SIM over its threshold batch after batch), only for its own SIMs (a
// tag, a plan, its company), with a webhook event per firing in the outbox and a pause by the rule; a paused SIM's
// usage is still taken in and never pauses it again in the period; a silence rule on a virtual clock fires once
// its deadline passed (not before), once per silence, never for a SIM never seen or paused, once when two instances
// sweep at once; the e-mail digest (to a real SMTP server) is one mail per rule and recipient an hour.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Company, RatePlan, Rule, RuleRecipient, Sim, User, WebhookEndpoint } from '#server/db/entities.ts';
import { migrate, type Em } from '#server/db/orm.ts';
import { sendDigests } from '#server/rules/digest.ts';
import { updateRule } from '#server/rules/rules.ts';
import { sweepSilence } from '#server/rules/silence.ts';
import { changeTags } from '#server/sims/tags.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { useFreshOrm } from '#tests/helpers/orm.ts';
import { startSmtp } from '#tests/helpers/smtp.ts';

const db = useFreshOrm();
const em = () => db.orm.em.fork();
/** The virtual clock: noon on the 20th, Swedish time. */
const NOW = new Date('2026-11-20T11:00:00Z');
const GB = 1_000_000_000;

let company: number;
let other: number;
let plan1g: number;
let plan5g: number;
let owner: number;
let n = 0;
const iccid = () => withCheckDigit(`8946111${String(++n).padStart(12, '0')}`);

async function sim(e: Em, companyId: number, planId: number, mark = ''): Promise<{ id: number; iccid: string }> {
  const s = e.create(Sim, {
    iccid: iccid(),
    company: e.getReference(Company, companyId),
    ratePlan: e.getReference(RatePlan, planId),
    invoiceLineMark: mark,
    activatedAt: new Date('2026-01-01T00:00:00Z'),
  });
  await e.flush();
  return { id: s.id, iccid: s.iccid };
}

type RuleFields = {
  name: string;
  target?: 'all' | 'tag' | 'plan';
  targetTag?: string;
  targetPlan?: number;
  condition?: 'month_share' | 'month_bytes' | 'day_bytes' | 'silent';
  threshold?: number;
  notifyEmail?: boolean;
  notifyWebhook?: boolean;
  notifyToast?: boolean;
  pause?: boolean;
};

async function rule(e: Em, companyId: number, fields: RuleFields): Promise<number> {
  const r = e.create(Rule, {
    company: e.getReference(Company, companyId),
    name: fields.name,
    target: fields.target ?? 'all',
    targetTag: fields.targetTag ?? null,
    targetPlan: fields.targetPlan === undefined ? null : e.getReference(RatePlan, fields.targetPlan),
    condition: fields.condition ?? 'month_share',
    threshold: fields.threshold ?? 80,
    notifyEmail: fields.notifyEmail ?? false,
    notifyWebhook: fields.notifyWebhook ?? true,
    notifyToast: fields.notifyToast ?? false,
    pause: fields.pause ?? false,
  });
  await e.flush();
  return r.id;
}

let rec = 0;
/** A 15-minute record of `bytes` (down) for the SIM, starting at `start`. */
const record = (s: { iccid: string }, start: string, bytes: number) => ({
  recordId: `r${++rec}`,
  iccid: s.iccid,
  start,
  end: new Date(new Date(start).getTime() + 15 * 60_000).toISOString(),
  bytesUp: 0,
  bytesDown: bytes,
});

const firings = async (ruleId: number) =>
  (
    await em().execute<Array<{ sim_id: number; period: string; value: string | number; paused: boolean }>>(
      `select sim_id, period, value, paused from rule_firing where rule_id = ? order by sim_id, period`,
      [ruleId],
    )
  ).map((f) => ({ sim: Number(f.sim_id), period: f.period, value: Number(f.value), paused: f.paused }));

const events = async (type: string) =>
  (
    await em().execute<Array<{ data: unknown }>>(`select data from webhook_event where type = ? order by created_at`, [
      type,
    ])
  ).map((r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, any>);

beforeAll(async () => {
  await migrate(db.orm);
  const e = em();
  const p1 = e.create(RatePlan, { code: 'R-1G', description: 'Data 1 GB', dataLimit: 1000, isLegacy: false });
  const p5 = e.create(RatePlan, { code: 'R-5G', description: 'Data 5 GB', dataLimit: 5000, isLegacy: false });
  const c = e.create(Company, { name: 'Regel AB', customerNumber: 'RULE-1', invoiceNote: '' });
  const o = e.create(Company, { name: 'Annan AB', customerNumber: 'RULE-2', invoiceNote: '' });
  const u = e.create(User, { name: 'Rut Regel', email: 'rut@regel.se', company: c, role: 'owner' });
  await e.flush();
  company = c.id;
  other = o.id;
  plan1g = p1.id;
  plan5g = p5.id;
  owner = u.id;
  for (const id of [company, other])
    e.create(WebhookEndpoint, {
      company: e.getReference(Company, id),
      url: 'https://hooks.example/in',
      events: ['usage.threshold_reached', 'sim.silent', 'sim.paused'],
      secret: 'x'.repeat(40),
    });
  await e.flush();
});

describe('usage rules in the ingest', () => {
  it('fires 80 % and 100 % in one batch, out of order and late, once per SIM and month; a repeat fires nothing', async () => {
    const e = em();
    const a = await sim(e, company, plan1g, 'A');
    const b = await sim(e, company, plan1g, 'B');
    const r80 = await rule(e, company, { name: 'Över 80 %', threshold: 80 });
    const r100 = await rule(e, company, { name: 'Över 100 %', threshold: 100 });
    // A: 1.05 GB this month, sent newest first and with a record of the 3rd (late); B: 0.5 GB, fires neither.
    const batch = [
      record(a, '2026-11-20T10:00:00Z', 0.45 * GB),
      record(a, '2026-11-03T08:00:00Z', 0.6 * GB),
      record(b, '2026-11-20T10:00:00Z', 0.5 * GB),
    ];
    const counts = await ingestUsage(e, 'rules', batch, { now: NOW });
    expect(counts.taken).toBe(3);
    expect(await firings(r80)).toEqual([{ sim: a.id, period: '2026-11', value: 1.05 * GB, paused: false }]);
    expect(await firings(r100)).toEqual([{ sim: a.id, period: '2026-11', value: 1.05 * GB, paused: false }]);
    // The same batch again, and more usage this month: no second firing.
    await ingestUsage(e, 'rules', batch, { now: NOW });
    await ingestUsage(e, 'rules', [record(a, '2026-11-20T10:15:00Z', 0.1 * GB)], { now: NOW });
    expect(await firings(r80)).toHaveLength(1);
    const sent = (await events('usage.threshold_reached')).filter((d) => d.sim.id === a.id);
    expect(sent).toHaveLength(2);
    expect(sent.find((d) => d.rule.id === r80)).toMatchObject({
      rule: { id: r80, name: 'Över 80 %' },
      sim: { id: a.id, iccid: a.iccid, tags: [] },
      condition: 'month_share',
      threshold: 80,
      period: '2026-11',
      value: 1.05 * GB,
      dataLimitMb: 1000,
    });
    await e.execute(`update rule set enabled = false where id in (?, ?)`, [r80, r100]);
  });

  it('fires a late record in its own month: last month crossing fires for last month', async () => {
    const e = em();
    const s = await sim(e, company, plan1g);
    const r = await rule(e, company, { name: 'Månad 1 GB', condition: 'month_bytes', threshold: GB });
    await ingestUsage(e, 'rules', [record(s, '2026-10-31T20:00:00Z', 1.2 * GB)], { now: NOW });
    expect(await firings(r)).toEqual([{ sim: s.id, period: '2026-10', value: 1.2 * GB, paused: false }]);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });

  it('a day rule fires per Swedish day', async () => {
    const e = em();
    const s = await sim(e, company, plan5g);
    const r = await rule(e, company, { name: 'Dag 100 MB', condition: 'day_bytes', threshold: 100_000_000 });
    await ingestUsage(
      e,
      'rules',
      [
        // 23:30 UTC on the 18th is the 19th in Stockholm.
        record(s, '2026-11-18T23:30:00Z', 60_000_000),
        record(s, '2026-11-19T10:00:00Z', 60_000_000),
        record(s, '2026-11-20T09:00:00Z', 150_000_000),
        record(s, '2026-11-18T09:00:00Z', 20_000_000),
      ],
      { now: NOW },
    );
    expect((await firings(r)).map((f) => [f.period, f.value])).toEqual([
      ['2026-11-19', 120_000_000],
      ['2026-11-20', 150_000_000],
    ]);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });

  it('acts only on its own SIMs: a tag, a plan, never another company’s', async () => {
    const e = em();
    const tagged = await sim(e, company, plan1g);
    const untagged = await sim(e, company, plan1g);
    const on5 = await sim(e, company, plan5g);
    const theirs = await sim(e, other, plan1g);
    await changeTags(e, company, { ids: [tagged.id], add: ['Kylbilar'], remove: [] });
    await changeTags(e, other, { ids: [theirs.id], add: ['Kylbilar'], remove: [] });
    const byTag = await rule(e, company, { name: 'Kylbilar', target: 'tag', targetTag: 'Kylbilar', threshold: 50 });
    const byPlan = await rule(e, company, {
      name: '5 GB-planen',
      target: 'plan',
      targetPlan: plan5g,
      condition: 'month_bytes',
      threshold: 100_000_000,
    });
    await ingestUsage(
      e,
      'rules',
      [tagged, untagged, on5, theirs].map((s) => record(s, '2026-11-20T09:00:00Z', 0.9 * GB)),
      { now: NOW },
    );
    expect((await firings(byTag)).map((f) => f.sim)).toEqual([tagged.id]);
    expect((await firings(byPlan)).map((f) => f.sim)).toEqual([on5.id]);
    const tagEvent = (await events('usage.threshold_reached')).find((d) => d.rule.id === byTag);
    expect(tagEvent?.sim.tags).toEqual(['Kylbilar']);
    await e.execute(`update rule set enabled = false where id in (?, ?)`, [byTag, byPlan]);
  });

  it('pauses by the rule: history and sim.paused name it; later usage is taken in and never pauses it again', async () => {
    const e = em();
    const s = await sim(e, company, plan1g);
    const r = await rule(e, company, { name: 'Över 90 %', threshold: 90, pause: true, notifyWebhook: false });
    await ingestUsage(e, 'rules', [record(s, '2026-11-20T09:00:00Z', 0.95 * GB)], { now: NOW });
    expect(await firings(r)).toEqual([{ sim: s.id, period: '2026-11', value: 0.95 * GB, paused: true }]);
    const [row] = await e.execute<Array<{ paused_at: unknown; kind: string; after: any; rule_id: number }>>(
      `select s.paused_at, e.kind, e.after, e.rule_id from sim s join sim_event e on e.id = s.paused_event_id where s.id = ?`,
      [s.id],
    );
    expect(row?.paused_at).not.toBeNull();
    expect(row?.kind).toBe('paused');
    expect(Number(row?.rule_id)).toBe(r);
    expect(typeof row?.after === 'string' ? JSON.parse(row.after) : row?.after).toEqual({
      status: 'paused',
      rule: 'Över 90 %',
    });
    const paused = (await events('sim.paused')).find((d) => d.sim.id === s.id);
    expect(paused?.sim.by).toEqual({ kind: 'rule', name: 'Över 90 %' });
    // The rule sends no webhooks of its own.
    expect((await events('usage.threshold_reached')).filter((d) => d.rule.id === r)).toEqual([]);
    // Resumed by a person; more usage this month is taken in and does not pause it again.
    await e.execute(`update sim set paused_at = null, paused_event_id = null where id = ?`, [s.id]);
    const later = await ingestUsage(e, 'rules', [record(s, '2026-11-20T10:00:00Z', 0.2 * GB)], { now: NOW });
    expect(later.taken).toBe(1);
    const [again] = await e.execute<Array<{ paused_at: unknown }>>(`select paused_at from sim where id = ?`, [s.id]);
    expect(again?.paused_at).toBeNull();
    expect(await firings(r)).toHaveLength(1);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });

  it('with rules of every kind, target and threshold at once, fires exactly what the totals reach (an oracle)', () =>
    oracleRound('RULE-3', ['month_share', 'month_bytes', 'day_bytes']));
  it('with shares alone (no byte rule to let a SIM through), fires exactly what the totals reach', () =>
    oracleRound('RULE-4', ['month_share']));

  it('two instances ingesting the same batch at once fire once', async () => {
    const e = em();
    const sims = [await sim(e, company, plan1g), await sim(e, company, plan1g), await sim(e, company, plan1g)];
    const r = await rule(e, company, { name: 'Två på en gång', threshold: 10, pause: true });
    const batch = sims.map((s) => record(s, '2026-11-20T09:00:00Z', 0.5 * GB));
    const [one, two] = await Promise.all([
      ingestUsage(em(), 'rules', batch, { now: NOW }),
      ingestUsage(em(), 'rules', batch, { now: NOW }),
    ]);
    expect(one.taken + two.taken).toBe(3);
    expect((await firings(r)).map((f) => f.sim)).toEqual(sims.map((s) => s.id));
    expect((await events('usage.threshold_reached')).filter((d) => d.rule.id === r)).toHaveLength(3);
    expect((await events('sim.paused')).filter((d) => sims.some((s) => s.id === d.sim.id))).toHaveLength(3);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });
});

/** The oracle of the usage rules (see the tests that call it): a company of its own, rules of these kinds. */
async function oracleRound(
  customerNumber: string,
  kinds: ReadonlyArray<'month_share' | 'month_bytes' | 'day_bytes'>,
): Promise<void> {
  // The evaluation joins a SIM only to the rules whose threshold it reached (the lowest of each kind first, then a
  // range of the rules' index): against the plain definition, a rule fires for a SIM and period iff its SIM is the
  // rule's and the period's total reached the threshold (totals only grow, so the end decides). Each threshold is
  // one of its SIMs' totals exactly, or one over it, so every comparison is tried at its edge.
  const e = em();
  const unlimited = e.create(RatePlan, {
    code: `R-FRI-${customerNumber}`,
    description: 'Fri data',
    dataLimit: 0,
    isLegacy: false,
  });
  const mixed = e.create(Company, { name: `Blandat ${customerNumber}`, customerNumber, invoiceNote: '' });
  await e.flush();
  const plans = [plan1g, plan5g, unlimited.id];
  const limits = new Map([
    [plan1g, 1000],
    [plan5g, 5000],
    [unlimited.id, 0],
  ]);
  let seed = 40;
  const random = (k: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % k;
  };
  const sims: Array<{ id: number; iccid: string; plan: number; tagged: boolean }> = [];
  for (let i = 0; i < 12; i++) {
    const plan = plans[i % 3] ?? plan1g;
    const s = await sim(e, mixed.id, plan);
    sims.push({ ...s, plan, tagged: i % 4 < 2 });
  }
  await changeTags(e, mixed.id, { ids: sims.filter((s) => s.tagged).map((s) => s.id), add: ['Blandad'], remove: [] });
  // Four batches of records over two Swedish days of November and one of October (late), 10-200 MB each (a share
  // of 1 GB is then reached exactly).
  const totals = new Map<string, number>();
  const add = (key: string, bytes: number) => totals.set(key, (totals.get(key) ?? 0) + bytes);
  const starts = ['2026-10-30T08:00:00Z', '2026-11-19T12:00:00Z', '2026-11-20T00:30:00Z'];
  const batches = Array.from({ length: 4 }, () =>
    Array.from({ length: 40 }, (_, k) => {
      const s = sims[random(sims.length)] ?? sims[0];
      const start = new Date(new Date(starts[random(3)] ?? '').getTime() + k * 15 * 60_000).toISOString();
      const bytes = (1 + random(20)) * 10e6;
      const day = new Date(start).toLocaleDateString('sv-SE', { timeZone: 'Europe/Stockholm' });
      if (s) {
        add(`${s.id}:${day}`, bytes);
        add(`${s.id}:${day.slice(0, 7)}`, bytes);
      }
      return record(s ?? { iccid: '' }, start, bytes);
    }),
  );
  type Made = { id: number; target: 'all' | 'tag' | 'plan'; plan?: number; condition: string; threshold: number };
  const made: Made[] = [];
  const ruleSims = (target: Made['target'], plan?: number) =>
    sims.filter((s) => target === 'all' || (target === 'tag' ? s.tagged : s.plan === plan));
  for (let i = 0; i < 45; i++) {
    const target = (['all', 'tag', 'plan'] as const)[i % 3] ?? 'all';
    const condition = kinds[Math.floor(i / 3) % kinds.length] ?? 'month_share';
    const plan = target === 'plan' ? plans[random(2)] : undefined;
    // A total of one of the rule's SIMs (of a day or a month as the rule counts), exactly or one over it.
    const own = ruleSims(target, plan).filter((s) => condition !== 'month_share' || (limits.get(s.plan) ?? 0) > 0);
    const periods = [...totals].filter(
      ([key]) =>
        own.some((s) => key.startsWith(`${s.id}:`)) &&
        (key.length - key.indexOf(':') - 1 === 10) === (condition === 'day_bytes'),
    );
    const [key, bytes] = periods[random(periods.length)] ?? ['', 1];
    const limit = limits.get(sims.find((s) => key.startsWith(`${s.id}:`))?.plan ?? plan1g) ?? 1000;
    const exact = condition === 'month_share' ? Math.max(1, Math.floor((bytes * 100) / (limit * 1e6))) : bytes;
    const threshold = exact + (i % 2);
    const id = await rule(e, mixed.id, {
      name: `Blandad ${i}`,
      target,
      targetTag: target === 'tag' ? 'Blandad' : undefined,
      targetPlan: plan,
      condition,
      threshold,
    });
    made.push({ id, target, plan, condition, threshold });
  }
  for (const records of batches) expect((await ingestUsage(e, 'rules', records, { now: NOW })).taken).toBe(40);
  const expected: string[] = [];
  for (const r of made)
    for (const s of ruleSims(r.target, r.plan))
      for (const [key, bytes] of totals) {
        const [simId, period = ''] = key.split(':');
        if (Number(simId) !== s.id || (r.condition === 'day_bytes') !== (period.length === 10)) continue;
        const limit = limits.get(s.plan) ?? 0;
        const reached =
          r.condition === 'month_share' ? limit > 0 && bytes * 100 >= r.threshold * limit * 1e6 : bytes >= r.threshold;
        if (reached) expected.push(`${r.id}:${s.id}:${period}`);
      }
  const fired = await e.execute<Array<{ k: string }>>(
    `select rule_id || ':' || sim_id || ':' || period as k from rule_firing where company_id = ?`,
    [mixed.id],
  );
  expect(fired.map((f) => f.k).sort()).toEqual(expected.sort());
  expect(expected.length).toBeGreaterThan(20);
  await e.execute(`update rule set enabled = false where company_id = ?`, [mixed.id]);
}

describe('silence rules on a virtual clock', () => {
  it('fires once the deadline passed, once per silence, never for a SIM never seen or paused', async () => {
    const e = em();
    const quiet = await sim(e, company, plan1g, 'Tyst');
    const never = await sim(e, company, plan1g, 'Aldrig sedd');
    const paused = await sim(e, company, plan1g, 'Pausad');
    // The SIMs of the tests before are silent too: this rule watches its own tag.
    await changeTags(e, company, { ids: [quiet.id, never.id, paused.id], add: ['Trackers'], remove: [] });
    const r = await rule(e, company, {
      name: 'Tyst ett dygn',
      condition: 'silent',
      threshold: 24 * 60,
      target: 'tag',
      targetTag: 'Trackers',
    });
    // Last traffic ends at 10:15 on the 20th.
    await ingestUsage(
      e,
      'rules',
      [record(quiet, '2026-11-20T10:00:00Z', 1000), record(paused, '2026-11-20T10:00:00Z', 1000)],
      {
        now: NOW,
      },
    );
    await e.execute(`update sim set paused_at = now() where id = ?`, [paused.id]);
    const at = (iso: string) => sweepSilence(em(), new Date(iso));
    expect(await at('2026-11-21T10:14:00Z')).toEqual([]);
    const fired = await at('2026-11-21T10:16:00Z');
    expect(fired.map((f) => f.sims)).toEqual([[quiet.id]]);
    expect(await firings(r)).toEqual([
      { sim: quiet.id, period: 'silent:2026-11-20T10:15:00.000Z', value: 24 * 60 + 1, paused: false },
    ]);
    // The next sweeps: nothing new.
    expect(await at('2026-11-21T10:17:00Z')).toEqual([]);
    expect(await at('2026-11-23T10:17:00Z')).toEqual([]);
    const [event] = (await events('sim.silent')).filter((d) => d.sim.id === quiet.id);
    expect(event).toMatchObject({
      rule: { id: r, name: 'Tyst ett dygn' },
      lastSeenAt: '2026-11-20T10:15:00.000Z',
      silentMinutes: 1440,
    });
    // Traffic comes back, then stops again: a new silence fires again.
    await ingestUsage(em(), 'rules', [record(quiet, '2026-11-23T12:00:00Z', 1000)], {
      now: new Date('2026-11-23T12:30:00Z'),
    });
    expect(await at('2026-11-24T12:00:00Z')).toEqual([]);
    expect((await at('2026-11-24T12:20:00Z')).map((f) => f.sims)).toEqual([[quiet.id]]);
    expect((await firings(r)).map((f) => f.period)).toEqual([
      'silent:2026-11-20T10:15:00.000Z',
      'silent:2026-11-23T12:15:00.000Z',
    ]);
    expect((await firings(r)).some((f) => f.sim === never.id || f.sim === paused.id)).toBe(false);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });

  it('a changed rule looks at its SIMs again: a shorter silence fires for one silent longer than it already', async () => {
    const e = em();
    const s = await sim(e, company, plan1g);
    await changeTags(e, company, { ids: [s.id], add: ['Ändrad'], remove: [] });
    const r = await rule(e, company, {
      name: 'Tyst två dygn',
      condition: 'silent',
      threshold: 48 * 60,
      target: 'tag',
      targetTag: 'Ändrad',
    });
    await ingestUsage(e, 'rules', [record(s, '2026-11-26T10:00:00Z', 1000)], { now: new Date('2026-11-26T10:30:00Z') });
    expect(await sweepSilence(em(), new Date('2026-11-27T12:00:00Z'))).toEqual([]);
    const actor = { userId: owner, actingCompanyId: null, companyId: company };
    await updateRule(em(), actor, {
      id: r,
      name: 'Tyst ett dygn (ändrad)',
      enabled: true,
      target: 'tag',
      tag: 'Ändrad',
      planId: null,
      condition: 'silent',
      threshold: 24 * 60,
      notifyEmail: false,
      notifyWebhook: true,
      notifyToast: false,
      pause: false,
      recipients: [],
    });
    const fired = await sweepSilence(em(), new Date('2026-11-27T12:01:00Z'));
    expect(fired.filter((f) => f.ruleId === r).flatMap((f) => f.sims)).toEqual([s.id]);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });

  it('two instances sweeping at once fire once', async () => {
    const e = em();
    const s = await sim(e, company, plan1g);
    await changeTags(e, company, { ids: [s.id], add: ['Två'], remove: [] });
    const r = await rule(e, company, {
      name: 'Tyst i två',
      condition: 'silent',
      threshold: 60,
      target: 'tag',
      targetTag: 'Två',
    });
    await ingestUsage(e, 'rules', [record(s, '2026-11-25T10:00:00Z', 1000)], { now: new Date('2026-11-25T10:30:00Z') });
    const when = new Date('2026-11-25T11:20:00Z');
    const [one, two] = await Promise.all([sweepSilence(em(), when), sweepSilence(em(), when)]);
    expect([...one, ...two].filter((f) => f.ruleId === r).flatMap((f) => f.sims)).toEqual([s.id]);
    expect(await firings(r)).toHaveLength(1);
    expect((await events('sim.silent')).filter((d) => d.rule.id === r)).toHaveLength(1);
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });
});

describe('the e-mail digest', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  it('is one mail per rule and recipient an hour, naming the first 50 SIMs and the count', async () => {
    const transport = nodemailer.createTransport(smtp.url);
    const mailer = {
      send: async (m: { to: string; subject: string; text: string; html: string }) => {
        await transport.sendMail({ from: 'SIM-portalen <no-reply@test>', ...m });
      },
      close: () => transport.close(),
    };
    const e = em();
    const sims = [];
    for (let i = 0; i < 60; i++) sims.push(await sim(e, company, plan1g, `Digest ${i}`));
    const r = await rule(e, company, {
      name: 'Digest 50 %',
      threshold: 50,
      notifyEmail: true,
      notifyWebhook: false,
    });
    e.create(RuleRecipient, { rule: e.getReference(Rule, r), user: e.getReference(User, owner) });
    await e.flush();
    await ingestUsage(
      e,
      'rules',
      sims.map((s) => record(s, '2026-11-20T09:00:00Z', 0.6 * GB)),
      { now: NOW },
    );
    const digestAt = new Date('2026-11-20T11:01:00Z');
    expect(await sendDigests(em(), mailer, 'https://portal.test', digestAt)).toBe(1);
    const mails = smtp.to('rut@regel.se').filter((m) => m.raw.includes('Digest 50'));
    expect(mails).toHaveLength(1);
    const text = (mails[0]?.raw ?? '').replace(/=\r?\n/g, '');
    expect(text).toMatch(/60 SIM-kort/);
    expect(text).toContain('https://portal.test/company/rules');
    // Within the hour: nothing, even with new firings; after it, the new ones.
    const more = await sim(e, company, plan1g, 'Digest sen');
    await ingestUsage(e, 'rules', [record(more, '2026-11-20T09:00:00Z', 0.6 * GB)], { now: NOW });
    expect(await sendDigests(em(), mailer, 'https://portal.test', new Date('2026-11-20T11:30:00Z'))).toBe(0);
    expect(await sendDigests(em(), mailer, 'https://portal.test', new Date('2026-11-20T12:02:00Z'))).toBe(1);
    expect(smtp.to('rut@regel.se').filter((m) => m.raw.includes('Digest 50'))).toHaveLength(2);
    expect(await sendDigests(em(), mailer, 'https://portal.test', new Date('2026-11-20T14:00:00Z'))).toBe(0);
    transport.close();
    await e.execute(`update rule set enabled = false where id = ?`, [r]);
  });
});
