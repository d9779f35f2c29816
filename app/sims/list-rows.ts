// The rows of /sims in words, made by its loader (app/routes/sims._index.tsx): the activation day, this month's usage
// and its share of the plan, and how long ago the SIM was seen, the same in the HTML and after hydration.
import { formatDate } from '#app/utils/text.ts';
import { tFleetUsage } from '#domain/texts/fleet-usage.ts';
import { formatBytes, usageAgainstPlan } from '#domain/usage/format.ts';

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
    activated: dayOf(s.activatedAt),
    used: used ? formatBytes(s.usage.monthBytes) : tFleetUsage.none,
    pct: used ? used.percent : null,
    seen: s.usage.lastSeenAt ? tFleetUsage.ago(now - Date.parse(s.usage.lastSeenAt)) : tFleetUsage.never,
    paused: s.status === 'paused',
  };
}

/**
 * The activation day in words, by the UTC hour of the instant (2026-11-28T13): Stockholm's offset from UTC is
 * whole hours, so every instant of an hour is on the same day there, and a page's 50 SIMs share a few hours. One
 * Intl format per hour seen, not one per row (they were over 1 % of the CPU of a request); bounded, emptied when full.
 */
const days = new Map<string, string>();
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
function dayOf(iso: string): string {
  if (!UTC_ISO.test(iso)) return formatDate(new Date(iso));
  const hour = iso.slice(0, 13);
  let day = days.get(hour);
  if (day === undefined) {
    day = formatDate(new Date(iso));
    if (days.size >= 2000) days.clear();
    days.set(hour, day);
  }
  return day;
}
