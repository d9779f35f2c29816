// The rules' work that no request starts (issue 40): every minute each instance sweeps the silence rules and sends
// the e-mail digests that are due (both lock per rule, so instances share the work and never do one rule twice), and
// the toasts of what the rules did go to the company's signed-in users, one per rule and run (never one per SIM).
import { newToast, type Hub } from '#server/events/hub.ts';
import { tRuleMail } from '#domain/texts/rule-mail.ts';
import type { Em, Orm } from '#server/db/orm.ts';
import type { Logger } from '#server/log.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import type { Fired } from './evaluate.ts';
import { sendDigests } from './digest.ts';
import { sweepSilence } from './silence.ts';

/** How often the sweep and the digests run: a silence rule acts within this of its deadline. */
export const RULE_WATCH_MS = 60 * 1000;

/** The toasts of what the rules did: one per rule with toasts, to each user of its company (their open tabs). */
export async function toastFired(em: Em, hub: Hub, fired: readonly Fired[]): Promise<void> {
  const toasting = fired.filter((f) => f.notifyToast && f.sims.length > 0);
  if (toasting.length === 0) return;
  const companies = [...new Set(toasting.map((f) => f.companyId))];
  const users = await em.execute<Array<{ id: number; company_id: number }>>(
    `select id, company_id from app_user where company_id = any(?::int[]) and removed_at is null order by id`,
    [`{${companies.join(',')}}`],
  );
  for (const f of toasting) {
    const toast = newToast(
      'info',
      tRuleMail.toastTitle(f.ruleName),
      tRuleMail.toastMessage(f.sims.length, f.paused.length),
    );
    for (const user of users.filter((u) => Number(u.company_id) === f.companyId))
      await hub.publish({ kind: 'toast', userId: Number(user.id), toast });
  }
}

export type RuleWatch = { stop: () => Promise<void> };

/** One run: the silence sweep (and its toasts) and the digests due, at `now`. */
export async function watchRules(
  deps: { orm: Orm; hub: Hub; mailer: Mailer; appUrl: string },
  now = new Date(),
): Promise<{ fired: Fired[]; digests: number }> {
  const em = deps.orm.em.fork();
  const fired = await sweepSilence(em, now);
  await toastFired(em, deps.hub, fired);
  const digests = await sendDigests(em, deps.mailer, deps.appUrl, now);
  return { fired, digests };
}

export function startRuleWatch(
  deps: { orm: Orm; hub: Hub; mailer: Mailer; appUrl: string; log: Logger },
  intervalMs = RULE_WATCH_MS,
): RuleWatch {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return; // a slow run is not stacked on
    running = watchRules(deps)
      .then(
        ({ fired, digests }) => {
          if (fired.length || digests) deps.log.info({ fired: fired.length, digests }, 'rules acted');
        },
        // A database or mail server blip: the next run tries again (the watermarks and marks did not move).
        (err) => deps.log.warn({ err }, 'the rules could not run'),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
