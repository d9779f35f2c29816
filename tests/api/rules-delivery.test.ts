// A rule that fires for a thousand SIMs at once (issue 40: a new month's first big batch, a misconfigured threshold)
// through the real server's webhook worker to real receivers on 127.0.0.1: every usage.threshold_reached is delivered
// exactly once, and another company's event is delivered while that backlog is still being worked off (the worker is
// fair by endpoint, docs/decisions/017), not after it.
import { afterAll, describe, expect, it } from 'vitest';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Company, RatePlan, Rule, User, WebhookEndpoint } from '#server/db/entities.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { eventReceiver } from '#tests/helpers/webhooks.ts';

const portal = useScreens({
  browser: false,
  env: {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_BACKOFF_MS: '100',
    WEBHOOK_POLL_MS: '100',
  },
});
const em = () => portal.server.services.orm.em.fork();
/** SIMs the rule fires for in one batch. */
const FLEET = 1_000;

const receivers: Array<Awaited<ReturnType<typeof eventReceiver>>> = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

async function companyWithEndpoint(name: string, url: string, events: string[]) {
  const e = em();
  const c = e.create(Company, { name, customerNumber: `${name}-${Date.now()}`, invoiceNote: '' });
  e.create(User, {
    name: `Ägare ${name}`,
    email: `${name.toLowerCase()}.${Date.now()}@regler.se`,
    company: c,
    role: 'owner',
  });
  e.create(WebhookEndpoint, { company: c, url, events, secret: `whsec_${'k'.repeat(40)}` });
  await e.flush();
  return c.id;
}

describe('a rule that fires for a thousand SIMs at once', () => {
  it('delivers every webhook once, and another company’s event is not held behind them', async () => {
    const big = await eventReceiver();
    const small = await eventReceiver();
    receivers.push(big, small);
    const busy = await companyWithEndpoint('Storflotta', big.url, ['usage.threshold_reached']);
    const other = await companyWithEndpoint('Lillflotta', small.url, ['sim.paused']);
    const e = em();
    const plan = await e.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    const iccids = Array.from({ length: FLEET }, (_, i) => withCheckDigit(`8946222${String(i).padStart(12, '0')}`));
    await e.execute(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       select i, ?, ?, '', '', 'active', now() from json_array_elements_text(?::json) as t(i)`,
      [busy, plan.id, JSON.stringify(iccids)],
    );
    e.create(Rule, {
      company: e.getReference(Company, busy),
      name: 'Fel gräns: 1 byte',
      target: 'all',
      condition: 'month_bytes',
      threshold: 1,
      notifyWebhook: true,
    });
    const [lone] = [
      await e.execute<Array<{ id: number }>>(
        `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
         values (?, ?, ?, '', '', 'active', now()) returning id`,
        [withCheckDigit('8946223000000000001'), other, plan.id],
      ),
    ];
    await e.flush();
    const start = new Date(Date.now() - 20 * 60_000);
    const records = iccids.map((iccid, i) => ({
      recordId: `big-${i}`,
      iccid,
      start: start.toISOString(),
      end: new Date(start.getTime() + 60_000).toISOString(),
      bytesUp: 10,
      bytesDown: 10,
    }));
    const counts = await ingestUsage(em(), 'regler', records);
    expect(counts.taken).toBe(FLEET);
    const [queued] = await e.execute<Array<{ n: number }>>(
      `select count(*)::int as n from webhook_event where company_id = ? and type = 'usage.threshold_reached'`,
      [busy],
    );
    expect(queued?.n).toBe(FLEET);
    // The backlog is being delivered; now the other company's event.
    await expect.poll(() => big.got.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const paused = await fetch(`${portal.server.url}/api/sim/pause/${lone?.[0]?.id}`, {
      method: 'POST',
      headers: { cookie: await portal.server.sessionCookie((await e.findOneOrFail(User, { company: other })).email) },
    });
    expect(paused.status).toBe(200);
    await expect.poll(() => small.got.length, { timeout: 30_000, interval: 20 }).toBe(1);
    // Delivered while most of the backlog was still waiting.
    expect(big.got.length).toBeLessThan(FLEET / 2);
    await expect.poll(() => big.got.length, { timeout: 180_000, interval: 200 }).toBe(FLEET);
    expect(new Set(big.got.map((g) => g.id)).size).toBe(FLEET);
    expect(big.got.every((g) => g.type === 'usage.threshold_reached')).toBe(true);
  });
});
