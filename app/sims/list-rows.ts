// The rows of /sims in words, made by its loader (app/routes/sims._index.tsx): the activation day, this month's usage
// and its share of the plan, and how long ago the SIM was seen, the same in the HTML and after hydration.
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { formatBytes, usageAgainstPlan } from '#domain/usage/format.ts';
import { swedishDay } from '#domain/usage/time.ts';

type Listed = {
  id: number;
  iccid: string;
  invoiceLineMark: string;
  activatedAt: string;
  /** active, paused or deactivated (issue 40): a paused row shows its badge. */
  status: string;
  ratePlan: { isLegacy: boolean; description: string; dataLimit: number };
  usage: { monthBytes: number; lastSeenAt: string | null };
};

/**
 * A row in words, made on the server: the day, the usage and how long ago the SIM was seen are the same in the HTML
 * and after hydration, and no Intl runs per row. No usage this month is "–" (it sorts after the rest either way).
 */
export function row(s: Listed, now: number) {
  const used = s.usage.monthBytes > 0 ? usageAgainstPlan(s.usage.monthBytes, s.ratePlan.dataLimit) : null;
  return {
    id: s.id,
    iccid: s.iccid,
    mark: s.invoiceLineMark,
    legacy: s.ratePlan.isLegacy,
    plan: s.ratePlan.description,
    activated: swedishDay(new Date(s.activatedAt)),
    used: used ? formatBytes(s.usage.monthBytes) : tFleetUsage.none,
    pct: used ? used.percent : null,
    seen: s.usage.lastSeenAt ? tFleetUsage.ago(now - Date.parse(s.usage.lastSeenAt)) : tFleetUsage.never,
    paused: s.status === 'paused',
  };
}
