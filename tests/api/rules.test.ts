// Long: one server serves every door of the rules: the CRUD, its refusals, who may, the cap and the firings' pages.
// Rules over REST (issue 40, docs/decisions/038): an owner makes, lists, changes and deletes a company's rules at
// /api/company/rules, each change in the trail (kind rule) and named on the activity; bad input is a 400 with a
// Swedish error next to its field; another company's owner sees and changes none of them; a member, a viewer and an
// API key are refused, and a change without a recent step-up too; the 101st rule is refused. The firings (written by
// the evaluation: here by SQL, as it will) are paged newest first, 50 a page, by an opaque `before`.
import { describe, expect, it } from 'vitest';
import { AuditEvent, Company, RatePlan, Rule, RuleRecipient, Sim, User } from '#server/db/entities.ts';
import { RULES_PER_COMPANY } from '#domain/rules/kinds.ts';
import { send, type Credentials } from '#tests/helpers/doors.ts';
import { iccidFactory } from '#tests/helpers/iccid.ts';
import { useScreens } from '#tests/helpers/screens.ts';

const portal = useScreens({ browser: false, env: { API_KEY_RATE_LIMIT: '1000000' } });
const em = () => portal.server.services.orm.em.fork();
const newIccid = iccidFactory('8946123');

let seq = 0;
/** A company of its own with an owner, a member, a viewer and a removed user; their ids and the owner's cookie. */
async function company() {
  const i = ++seq;
  const e = em();
  const c = e.create(Company, { name: `Regel ${i} AB`, customerNumber: `REGEL-${i}`, invoiceNote: '' });
  const mk = (role: 'owner' | 'member' | 'viewer', who: string) =>
    e.create(User, { name: `${who} ${i}`, email: `${who.toLowerCase()}.${i}@regel.se`, company: c, role });
  const owner = mk('owner', 'Ägare');
  const member = mk('member', 'Medlem');
  const viewer = mk('viewer', 'Läsare');
  const removed = mk('member', 'Borta');
  removed.removedAt = new Date();
  await e.flush();
  return {
    id: c.id,
    owner: { cookie: await portal.server.sessionCookie(owner.email) } as Credentials,
    ownerId: owner.id,
    memberId: member.id,
    member: { cookie: await portal.server.sessionCookie(member.email) } as Credentials,
    viewer: { cookie: await portal.server.sessionCookie(viewer.email) } as Credentials,
    stale: {
      cookie: await portal.server.sessionCookie(owner.email, { steppedUp: false }),
    } as Credentials,
    removedId: removed.id,
  };
}
type Co = Awaited<ReturnType<typeof company>>;

const api = (method: string, path: string, who: Credentials, json?: unknown) =>
  send(portal.server.url, method, `/api${path}`, who, json === undefined ? undefined : { json });

const rule = (over: Record<string, unknown> = {}) => ({
  name: 'Över 80 %',
  target: 'all',
  condition: 'month_share',
  threshold: 80,
  notifyToast: true,
  ...over,
});

async function made(c: Co, over: Record<string, unknown> = {}) {
  const r = await api('POST', '/company/rules', c.owner, rule(over));
  expect(r.status, r.text).toBe(200);
  return r.json as { id: number; name: string } & Record<string, unknown>;
}

describe('the rules of a company', () => {
  it('are made, listed, changed and deleted by the owner, each change in the trail and on the activity', async () => {
    const c = await company();
    const plan = await em().findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    const a = await made(c, {
      name: '  Tyst ett dygn ',
      target: 'tag',
      tag: '  Kyl   bilar ',
      condition: 'silent',
      threshold: 1440,
      notifyToast: false,
      notifyEmail: true,
      recipients: [c.ownerId, c.memberId, c.ownerId],
      pause: true,
    });
    expect(a).toMatchObject({
      name: 'Tyst ett dygn',
      enabled: true,
      target: 'tag',
      tag: 'Kyl bilar',
      planId: null,
      condition: 'silent',
      threshold: 1440,
      notifyEmail: true,
      notifyWebhook: false,
      notifyToast: false,
      pause: true,
      createdBy: `Ägare ${seq}`,
    });
    expect((a.recipients as Array<{ id: number }>).map((u) => u.id).sort()).toEqual([c.ownerId, c.memberId].sort());
    const b = await made(c, {
      name: 'Stor dag',
      target: 'plan',
      planId: plan.id,
      condition: 'day_bytes',
      threshold: 500_000_000,
      notifyWebhook: true,
    });
    expect(b).toMatchObject({ planId: plan.id, planCode: plan.code, threshold: 500_000_000 });

    const list = await api('GET', '/company/rules', c.owner);
    expect(list.status).toBe(200);
    expect((list.json as Array<{ id: number }>).map((r) => r.id)).toEqual([a.id, b.id]);

    const changed = await api('PUT', '/company/rules', c.owner, {
      ...rule({ name: 'Tyst två dygn', condition: 'silent', threshold: 2880, notifyToast: false, pause: true }),
      id: a.id,
      enabled: false,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({ id: a.id, name: 'Tyst två dygn', enabled: false, target: 'all', tag: null });
    expect(changed.json).toMatchObject({ notifyEmail: false, recipients: [] });
    expect(await em().count(RuleRecipient, { rule: a.id })).toBe(0);

    const gone = await api('POST', `/company/rules/delete/${b.id}`, c.owner, {});
    expect(gone.status, gone.text).toBe(200);
    expect(await em().count(Rule, { company: c.id })).toBe(1);

    const trail = await em().find(AuditEvent, { company: c.id, kind: 'rule' }, { orderBy: { id: 'asc' } });
    expect(trail.map((t) => [t.action, t.targetId])).toEqual([
      ['ruleCreated', String(a.id)],
      ['ruleCreated', String(b.id)],
      ['ruleUpdated', String(a.id)],
      ['ruleDeleted', String(b.id)],
    ]);
    expect(trail[2]?.before).toMatchObject({ name: 'Tyst ett dygn', threshold: 1440, tag: 'Kyl bilar' });
    expect(trail[2]?.after).toMatchObject({ name: 'Tyst två dygn', threshold: 2880, enabled: false });
    const activity = await api('GET', '/company/audit?kind=rule', c.owner);
    expect(activity.status, activity.text).toBe(200);
    expect(JSON.stringify(activity.json)).toContain('Lade till regeln Tyst ett dygn');
    expect(JSON.stringify(activity.json)).toContain('Ändrade regeln Tyst två dygn');
    expect(JSON.stringify(activity.json)).toContain('Tog bort regeln Stor dag');
  });

  it('refuses bad input with a Swedish error next to its field, and changes nothing', async () => {
    const c = await company();
    const other = await company();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: '   ' }, 'name', /Ange ett namn/],
      [{ name: 'x'.repeat(81) }, 'name', /80/],
      [{ target: 'alla' }, 'target', /Välj vilka SIM-kort/],
      [{ target: 'tag' }, 'tag', /Ange en tagg/],
      [{ target: 'tag', tag: 'a\u0007b' }, 'tag', /styrtecken/],
      [{ target: 'plan' }, 'planId', /Välj en plan/],
      [{ target: 'plan', planId: 999_999 }, 'planId', /Planen finns inte/],
      [{ tag: 'Kyl' }, 'tag', /hör inte till/],
      [{ condition: 'weekly' }, 'condition', /Välj när/],
      [{ threshold: 0 }, 'threshold', /mellan 1 och 1\s000 %/],
      [{ threshold: 1001 }, 'threshold', /mellan 1 och 1\s000 %/],
      [{ threshold: 80.5 }, 'threshold', /Ange ett värde/],
      [{ condition: 'month_bytes', threshold: 999_999 }, 'threshold', /minst 1 MB/],
      [{ condition: 'silent', threshold: 59 }, 'threshold', /minst 1 timme och högst 90 dagar/],
      [{ condition: 'silent', threshold: 90 * 1440 + 1 }, 'threshold', /högst 90 dagar/],
      [{ notifyToast: false }, 'actions', /Välj minst en åtgärd/],
      [{ notifyEmail: true }, 'recipients', /Välj minst en mottagare/],
      [{ notifyEmail: true, recipients: [c.removedId] }, 'recipients', /inte en användare i företaget/],
      [{ notifyEmail: true, recipients: [other.ownerId] }, 'recipients', /inte en användare i företaget/],
    ];
    for (const [over, field, message] of cases) {
      const r = await api('POST', '/company/rules', c.owner, rule(over));
      const label = `${JSON.stringify(over)}: ${r.text}`;
      expect(r.status, label).toBe(400);
      const body = r.json as { error: string; issues: Array<{ path: string[]; message: string }> };
      expect(body.error, label).toMatch(message);
      expect(body.issues.find((i) => i.path[0] === field)?.message, label).toMatch(message);
    }
    expect(await em().count(Rule, { company: c.id })).toBe(0);
    // A name the company already has: 409 next to the name.
    await made(c, { name: 'Samma' });
    const twice = await api('POST', '/company/rules', c.owner, rule({ name: 'Samma' }));
    expect(twice.status).toBe(409);
    expect(twice.json).toMatchObject({
      error: 'Företaget har redan en regel med det namnet.',
      issues: [{ path: ['name'] }],
    });
    // Another company may have the same name.
    await made(other, { name: 'Samma' });
    expect(await em().count(Rule, { company: c.id })).toBe(1);
    expect(await em().count(AuditEvent, { company: c.id, kind: 'rule' })).toBe(1);
  });

  it('are the owner’s own: another company sees and changes none, member, viewer and API key are refused', async () => {
    const a = await company();
    const b = await company();
    const mine = await made(a, { name: 'A:s regel' });
    const before = await api('GET', '/company/rules', a.owner);

    const theirs = await api('GET', '/company/rules', b.owner);
    expect(theirs.json).toEqual([]);
    const change = { ...rule({ name: 'Kapad' }), id: mine.id, enabled: true };
    expect((await api('PUT', '/company/rules', b.owner, change)).status).toBe(404);
    expect((await api('POST', `/company/rules/delete/${mine.id}`, b.owner, {})).status).toBe(404);
    expect((await api('GET', `/company/rules/firings?ruleId=${mine.id}`, b.owner)).status).toBe(404);

    for (const who of [a.member, a.viewer]) {
      expect((await api('GET', '/company/rules', who)).status).toBe(403);
      expect((await api('POST', '/company/rules', who, rule({ name: 'Medlemmens' }))).status).toBe(403);
      expect((await api('PUT', '/company/rules', who, change)).status).toBe(403);
      expect((await api('POST', `/company/rules/delete/${mine.id}`, who, {})).status).toBe(403);
      expect((await api('GET', '/company/rules/firings', who)).status).toBe(403);
    }
    for (const scope of ['read', 'write']) {
      const k = await api('POST', '/company/apiKeys', a.owner, { name: `Nyckel ${scope}`, scope });
      expect(k.status, k.text).toBe(200);
      const key = { bearer: (k.json as { key: string }).key };
      expect((await api('GET', '/company/rules', key)).status).toBe(403);
      expect((await api('POST', '/company/rules', key, rule({ name: 'Nyckelns' }))).status).toBe(403);
      expect((await api('PUT', '/company/rules', key, change)).status).toBe(403);
      expect((await api('POST', `/company/rules/delete/${mine.id}`, key, {})).status).toBe(403);
      expect((await api('GET', '/company/rules/firings', key)).status).toBe(403);
    }
    // Signed out: 401.
    expect((await api('GET', '/company/rules', {})).status).toBe(401);

    // An owner without a recent step-up reads, but changes nothing.
    expect((await api('GET', '/company/rules', a.stale)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/company/rules', rule({ name: 'Utan steg' })],
      ['PUT', '/company/rules', change],
      ['POST', `/company/rules/delete/${mine.id}`, {}],
    ] as const) {
      const r = await api(method, path, a.stale, body);
      expect(r.status, r.text).toBe(403);
      expect(r.json).toMatchObject({ stepUp: true, error: expect.any(String) });
    }
    expect((await api('GET', '/company/rules', a.owner)).json).toEqual(before.json);
  });

  it(`stops at ${RULES_PER_COMPANY} rules a company`, async () => {
    const c = await company();
    await em().execute(
      `insert into rule (company_id, name, target, condition, threshold, notify_toast)
       select ?, 'Regel ' || g, 'all', 'month_share', 80, true from generate_series(1, ?) g`,
      [c.id, RULES_PER_COMPANY - 1],
    );
    await made(c, { name: 'Den hundrade' });
    const r = await api('POST', '/company/rules', c.owner, rule({ name: 'För mycket' }));
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: `Ett företag kan ha högst ${RULES_PER_COMPANY} regler.`, issues: [] });
    expect(await em().count(Rule, { company: c.id })).toBe(RULES_PER_COMPANY);
    // Another company is not held back by it.
    await made(await company(), { name: 'Den första' });
  });

  it('makes one rule for one Idempotency-Key sent twice', async () => {
    const c = await company();
    const headers = { cookie: c.owner.cookie ?? '', 'content-type': 'application/json', 'idempotency-key': 'regel-1' };
    const body = JSON.stringify(rule({ name: 'En gång' }));
    const first = await fetch(`${portal.server.url}/api/company/rules`, { method: 'POST', headers, body });
    const again = await fetch(`${portal.server.url}/api/company/rules`, { method: 'POST', headers, body });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(((await again.json()) as { id: number }).id).toBe(((await first.json()) as { id: number }).id);
    expect(await em().count(Rule, { company: c.id })).toBe(1);
  });
});

describe('what the rules did', () => {
  it('is paged newest first, 50 a page, one rule’s or all, the company’s own only', async () => {
    const c = await company();
    const other = await company();
    const month = await made(c, { name: 'Månad' });
    const silent = await made(c, { name: 'Tyst', condition: 'silent', threshold: 60 });
    const theirs = await made(other, { name: 'Deras' });
    const plan = await em().findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    const e = em();
    const sim = e.create(Sim, { iccid: newIccid(), company: c.id, ratePlan: plan });
    const theirSim = e.create(Sim, { iccid: newIccid(), company: other.id, ratePlan: plan });
    await e.flush();
    // 120 firings, some at the very same time (the keyset must not lose or repeat one), and one of another company.
    await em().execute(
      `insert into rule_firing (company_id, rule_id, sim_id, period, value, fired_at, paused, webhook, emailed_at)
       select ?, case when g % 2 = 0 then ? else ? end, ?, case when g % 2 = 0 then '2026-11-' || g else 'silent:' || g end,
         g * 1000000, timestamptz '2026-11-29 10:00:00+00' + (g / 3) * interval '1 second', g % 5 = 0, g % 3 = 0,
         case when g % 4 = 0 then now() end
       from generate_series(1, 120) g`,
      [c.id, month.id, silent.id, sim.id],
    );
    await em().execute(
      `insert into rule_firing (company_id, rule_id, sim_id, period, value) values (?, ?, ?, '2026-11', 1)`,
      [other.id, theirs.id, theirSim.id],
    );
    type Page = {
      firings: Array<{ id: number; ruleName: string; iccid: string; simId: number; firedAt: string; value: number }>;
      next: string | null;
    };
    const seen: Page['firings'] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const r = await api(
        'GET',
        `/company/rules/firings${before ? `?before=${encodeURIComponent(before)}` : ''}`,
        c.owner,
      );
      expect(r.status, r.text).toBe(200);
      const page = r.json as Page;
      expect(page.firings.length).toBeLessThanOrEqual(50);
      seen.push(...page.firings);
      before = page.next;
      pages++;
    } while (before && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(120);
    expect(new Set(seen.map((f) => f.id)).size).toBe(120);
    const order = seen.map((f) => [f.firedAt, f.id] as const);
    expect(order).toEqual([...order].sort((x, y) => (x[0] === y[0] ? y[1] - x[1] : y[0].localeCompare(x[0]))));
    expect(seen[0]).toMatchObject({ iccid: sim.iccid, simId: sim.id, ruleName: 'Månad', value: 120_000_000 });
    expect(seen[0]).toMatchObject({
      period: '2026-11-120',
      paused: true,
      webhook: true,
      emailedAt: expect.any(String),
    });

    const one = await api('GET', `/company/rules/firings?ruleId=${silent.id}`, c.owner);
    expect((one.json as Page).firings.every((f) => f.ruleName === 'Tyst')).toBe(true);
    expect((one.json as Page).firings).toHaveLength(50);

    const bad = await api('GET', '/company/rules/firings?before=inte-en-markör', c.owner);
    expect(bad.status).toBe(400);
    expect((bad.json as { issues: Array<{ path: string[] }> }).issues[0]?.path).toEqual(['before']);

    // Deleting a rule takes its firings with it.
    await api('POST', `/company/rules/delete/${silent.id}`, c.owner, {});
    const left = await api('GET', '/company/rules/firings', c.owner);
    expect((left.json as Page).firings.every((f) => f.ruleName === 'Månad')).toBe(true);
  });
});
