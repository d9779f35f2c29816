// A rule that fires for 100,000 SIMs at once (issue 40: a new month's first big batch, a misconfigured threshold),
// on PostgreSQL with the built server: the records go in through the ingest (batches of 10,000, as the REST door
// takes them), the rule ("over 1 byte this month", webhook and e-mail) fires for every SIM, and the server's
// webhook worker delivers every usage.threshold_reached to a receiver on 127.0.0.1 (answering 204), while
// another company's event (a SIM paused through the API once the backlog is being delivered) is delivered within
// seconds, not behind the backlog (the worker is fair by endpoint, decision 017); the rule's e-mail digest goes out
// once (one mail to its one recipient, through a real SMTP server).
//
//   BENCH_RULE_SIMS (100,000; smoke 2,000)  BENCH_RULE_WAIT_S (900: how long the deliveries may take at most)
// Targets: every webhook delivered exactly once; the other company's event within 5 s; one digest.
import { SMOKE } from './env.ts';
import { withCheckDigit } from '#domain/sims/iccid.ts';
import { Company, RatePlan, Rule, RuleRecipient, User, WebhookEndpoint } from '#server/db/entities.ts';
import { initOrm, migrate } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { startSmtp } from '#tests/helpers/smtp.ts';
import { eventReceiver } from '#tests/helpers/webhooks.ts';
import { signedInSession } from '#tests/helpers/signed-in.ts';
import { benchOnPostgres, logger, runBenchmark, serverEnv, sleep, startProcess, writeResult } from './lib.ts';

const log = logger('rules');
const SIMS = Number(process.env.BENCH_RULE_SIMS ?? (SMOKE ? 2_000 : 100_000));
const WAIT_S = Number(process.env.BENCH_RULE_WAIT_S ?? 900);
const BATCH = 10_000;
const OTHER_MAX_MS = 5_000;

async function until(what: string, done: () => boolean, seconds: number): Promise<boolean> {
  const end = performance.now() + seconds * 1000;
  while (!done()) {
    if (performance.now() > end) {
      log(`gave up waiting for ${what} after ${seconds} s`);
      return false;
    }
    await sleep(50);
  }
  return true;
}

async function main(): Promise<{ pass: boolean }> {
  const { dataDir, pg, cleanup } = await benchOnPostgres('rules', log);
  const smtp = await startSmtp();
  const big = await eventReceiver();
  const small = await eventReceiver();
  const orm = await initOrm(pg.target);
  try {
    await migrate(orm);
    await seedDemo(orm.em.fork());
    const em = orm.em.fork();
    const plan = await em.findOneOrFail(RatePlan, { isLegacy: false }, { orderBy: { id: 'asc' } });
    const made = (name: string, url: string, events: string[]) => {
      const company = em.create(Company, { name, customerNumber: `REGEL-${name}`, invoiceNote: '' });
      const owner = em.create(User, {
        name: `Ägare ${name}`,
        email: `agare@${name.toLowerCase()}.se`,
        company,
        role: 'owner',
      });
      em.create(WebhookEndpoint, { company, url, events, secret: `whsec_${'k'.repeat(40)}` });
      return { company, owner };
    };
    const busy = made('Storflotta', big.url, ['usage.threshold_reached']);
    const other = made('Lillflotta', small.url, ['sim.paused']);
    await em.flush();
    const t0 = performance.now();
    const iccids = Array.from({ length: SIMS }, (_, i) => withCheckDigit(`8946224${String(i).padStart(12, '0')}`));
    for (let i = 0; i < SIMS; i += BATCH)
      await em.execute(
        `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
         select i, ?, ?, '', '', 'active', now() - interval '1 day' from json_array_elements_text(?::json) as t(i)`,
        [busy.company.id, plan.id, JSON.stringify(iccids.slice(i, i + BATCH))],
      );
    const [lone] = await em.execute<Array<{ id: number }>>(
      `insert into sim (iccid, company_id, rate_plan_id, invoice_line_mark, invoice_line_note, status, activated_at)
       values (?, ?, ?, '', '', 'active', now()) returning id`,
      [withCheckDigit('8946225000000000001'), other.company.id, plan.id],
    );
    const rule = em.create(Rule, {
      company: busy.company,
      name: 'Fel gräns: 1 byte',
      target: 'all',
      condition: 'month_bytes',
      threshold: 1,
      notifyWebhook: true,
      notifyEmail: true,
    });
    em.create(RuleRecipient, { rule, user: busy.owner });
    await em.flush();
    await em.execute('analyze');
    log(`seeded ${SIMS} SIMs in ${Math.round(performance.now() - t0)} ms`);

    const server = await startProcess(
      {
        ...serverEnv(pg.target, dataDir),
        SMTP_URL: smtp.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_POLL_MS: '100',
      },
      { name: 'the portal' },
    );
    try {
      // The records: one each, 20 minutes ago, in batches as the REST door takes them.
      const start = new Date(Date.now() - 20 * 60_000);
      const t1 = performance.now();
      let taken = 0;
      const batchMs: number[] = [];
      for (let i = 0; i < SIMS; i += BATCH) {
        const records = iccids.slice(i, i + BATCH).map((iccid, k) => ({
          recordId: `regel-${i + k}`,
          iccid,
          start: start.toISOString(),
          end: new Date(start.getTime() + 60_000).toISOString(),
          bytesUp: 10,
          bytesDown: 10,
        }));
        const tb = performance.now();
        taken += (await ingestUsage(orm.em.fork(), 'regler', records)).taken;
        batchMs.push(Math.round(performance.now() - tb));
      }
      const ingestMs = Math.round(performance.now() - t1);
      const [fired] = await em.execute<Array<{ firings: number; events: number }>>(
        `select (select count(*)::int from rule_firing where rule_id = ?) as firings,
                (select count(*)::int from webhook_event where company_id = ? and type = 'usage.threshold_reached') as events`,
        [rule.id, busy.company.id],
      );
      log(
        `ingested ${taken} records in ${ingestMs} ms (batches of ${BATCH}: ${batchMs.join(', ')} ms): ${fired?.firings} firings, ${fired?.events} webhook events`,
      );

      // Once the backlog is being delivered: the other company's event, timed from its request to its receiver.
      await until('the first delivery', () => big.got.length > 0, 120);
      const cookie = `sim_session=${await signedInSession(orm.em.fork(), other.owner.id)}`;
      const asked = performance.now();
      const paused = await fetch(`${server.url}/api/sim/pause/${lone?.id}`, { method: 'POST', headers: { cookie } });
      await until('the other company’s event', () => small.got.length > 0, 60);
      const otherMs = small.got[0] ? Math.round(small.got[0].at - asked) : null;
      const backlogThen = SIMS - big.got.length;
      log(`the other company's event: ${otherMs} ms (answer ${paused.status}), with ${backlogThen} still to deliver`);

      const all = await until('every delivery', () => big.got.length >= SIMS, WAIT_S);
      const first = big.got[0]?.at ?? t1;
      const last = big.got.at(-1)?.at ?? first;
      const perSecond = Math.round((big.got.length / Math.max(last - first, 1)) * 1000);
      await sleep(2_000); // none more should come
      const unique = new Set(big.got.map((g) => g.id)).size;
      log(`delivered ${big.got.length} (${unique} distinct) in ${Math.round(last - first)} ms: ${perSecond}/s`);

      // The digest: the watch sends it within its minute.
      await until('the digest', () => smtp.to(busy.owner.email).length > 0, 90);
      await sleep(3_000);
      const digests = smtp.to(busy.owner.email).length;
      log(`digests to the rule's recipient: ${digests}`);

      const pass =
        taken === SIMS &&
        fired?.firings === SIMS &&
        all &&
        big.got.length === SIMS &&
        unique === SIMS &&
        otherMs !== null &&
        otherMs < OTHER_MAX_MS &&
        digests === 1;
      const result = {
        sims: SIMS,
        ingestMs,
        batchMs,
        firings: fired?.firings,
        webhookEvents: fired?.events,
        delivered: big.got.length,
        distinct: unique,
        deliveryMs: Math.round(last - first),
        perSecond,
        otherCompanyMs: otherMs,
        backlogWhenOtherAsked: backlogThen,
        digests,
        targets: { otherMaxMs: OTHER_MAX_MS, everyOnce: true, digests: 1 },
        pass,
      };
      log(`-> ${writeResult('rules', result)}`);
      return { pass };
    } finally {
      await server.stop();
    }
  } finally {
    await orm.close(true);
    await big.close();
    await small.close();
    await smtp.close();
    await cleanup();
  }
}

runBenchmark(main);
