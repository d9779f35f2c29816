// The SIM page's "about the SIM" and its usage (issue 39): status, plan, activated, last seen; this month against
// the plan as a <meter> with the figure beside it ("1,2 GB av 5 GB"); the chart of the last 30 or 90 days (switched
// by a link, ?days=, so it works without JavaScript); the latest records; and how fresh it all is. Server-rendered,
// from the one overview the loader read. Styles in app/styles/usage.css.
import { Link } from '@remix-run/react';
import { Badge } from '#app/components/ui/Badge.tsx';
import { PausedBadge } from '#app/components/sims/PausedBadge.tsx';
import { formatDate, formatDateTime } from '#app/utils/text.ts';
import { tSimUsage } from '#domain/texts/sim-usage.ts';
import { formatBytes, usageAgainstPlan } from '#domain/usage/format.ts';
import type { SimUsageOverview } from '#domain/usage/sim-schemas.ts';
import { DayChart } from './DayChart.tsx';

const timeFormat = new Intl.DateTimeFormat('sv-SE', { timeStyle: 'short', timeZone: 'Europe/Stockholm' });
const dayFormat = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'short', timeZone: 'Europe/Stockholm' });
const regions = new Intl.DisplayNames(['sv'], { type: 'region' });

/** A country code as its Swedish name ("Sverige"), or the code when unknown. */
function countryName(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** "Data till och med 14:45" today, with the day before that. */
function asOfText(asOf: string, now: Date): string {
  const at = new Date(asOf);
  const time = timeFormat.format(at);
  return dayFormat.format(at) === dayFormat.format(now)
    ? tSimUsage.asOf(time)
    : tSimUsage.asOfDay(dayFormat.format(at), time);
}

/** Where and on what: "240-01 · Sverige · LTE" of what the network said. */
const where = (...parts: Array<string | null>) => parts.filter(Boolean).join(' · ') || tSimUsage.notSaid;

export type SimFacts = {
  status: string;
  plan: string;
  activatedAt: string;
};

/** Status, plan, activated and last seen. */
export function SimFactsCard({ sim, usage }: { sim: SimFacts; usage: SimUsageOverview }) {
  const seen = usage.lastSeen;
  return (
    <section className="card simfacts" aria-labelledby="about-title">
      <h2 id="about-title">{tSimUsage.aboutTitle}</h2>
      <dl className="facts">
        <div>
          <dt>{tSimUsage.status}</dt>
          <dd>
            {sim.status === 'paused' ? (
              <PausedBadge />
            ) : (
              <Badge tone={sim.status === 'active' ? 'ok' : 'neutral'}>
                {tSimUsage.statuses[sim.status] ?? sim.status}
              </Badge>
            )}
          </dd>
        </div>
        <div>
          <dt>{tSimUsage.plan}</dt>
          <dd>{sim.plan}</dd>
        </div>
        <div>
          <dt>{tSimUsage.activated}</dt>
          <dd>{formatDate(new Date(sim.activatedAt))}</dd>
        </div>
        <div>
          <dt>{tSimUsage.lastSeen}</dt>
          <dd>
            {seen ? (
              <>
                {formatDateTime(seen.at)}
                <span className="cell-sub">{where(seen.network, seen.country ? countryName(seen.country) : null)}</span>
              </>
            ) : (
              tSimUsage.neverSeen
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** This month against the plan and the chart of the last 30 or 90 days, with how fresh they are. */
export function UsageCard({
  usage,
  days,
  hrefFor,
  now,
}: {
  usage: SimUsageOverview;
  /** The chart's days: 30 or 90. */
  days: number;
  /** The page's address showing `n` days. */
  hrefFor: (n: number) => string;
  /** The loader's clock (the page says "today" as the server saw it). */
  now: string;
}) {
  const plan = usageAgainstPlan(usage.monthBytes, usage.dataLimitMb);
  const limitBytes = usage.dataLimitMb ? usage.dataLimitMb * 1e6 : 0;
  return (
    <section className="card simusage" aria-labelledby="usage-title">
      <div className="simusage-head">
        <h2 id="usage-title">{tSimUsage.title}</h2>
        <p className="muted simusage-asof">{usage.asOf ? asOfText(usage.asOf, new Date(now)) : tSimUsage.noData}</p>
      </div>
      <h3 id="month-title">{tSimUsage.thisMonth}</h3>
      <p className="simusage-figure" id="month-figure">
        <strong>{plan.text}</strong>
        {plan.percent === null ? null : <span className="muted"> ({tSimUsage.percentOfPlan(plan.percent)})</span>}
      </p>
      {limitBytes > 0 ? (
        <meter
          className="simusage-meter"
          min={0}
          max={limitBytes}
          low={limitBytes * 0.8}
          high={limitBytes * 0.95}
          optimum={0}
          value={Math.min(usage.monthBytes, limitBytes)}
          aria-labelledby="month-title"
          aria-describedby="month-figure"
        />
      ) : (
        <p className="muted">{tSimUsage.noLimit}</p>
      )}

      <div className="simusage-perday">
        <h3>{tSimUsage.perDay}</h3>
        <nav className="simusage-switch" aria-label={tSimUsage.perDay}>
          {[30, 90].map((n) => (
            <Link
              key={n}
              to={hrefFor(n)}
              className={n === days ? 'is-current' : undefined}
              aria-current={n === days ? 'page' : undefined}
              preventScrollReset
            >
              {tSimUsage.lastDays(n)}
            </Link>
          ))}
        </nav>
      </div>
      <DayChart
        id="simdays"
        days={usage.days.slice(-days)}
        labels={{
          title: tSimUsage.chartLabel(days),
          total: tSimUsage.chartTotal,
          max: tSimUsage.chartMax,
          table: tSimUsage.tableSummary,
          day: tSimUsage.day,
          amount: tSimUsage.amount,
        }}
      />
    </section>
  );
}

/** The latest records, newest first. */
export function SessionsTable({ usage }: { usage: SimUsageOverview }) {
  return (
    <section aria-labelledby="sessions-title" className="simsessions-section">
      <h2 id="sessions-title">{tSimUsage.sessions}</h2>
      {usage.sessions.length === 0 ? (
        <p className="muted">{tSimUsage.noSessions}</p>
      ) : (
        <>
          <p className="muted">{tSimUsage.sessionsIntro(usage.sessions.length)}</p>
          <table className="simsessions" aria-labelledby="sessions-title">
            <thead>
              <tr>
                <th scope="col">{tSimUsage.start}</th>
                <th scope="col" className="num">
                  {tSimUsage.amount}
                </th>
                <th scope="col">{tSimUsage.network}</th>
              </tr>
            </thead>
            <tbody>
              {usage.sessions.map((s) => (
                <tr key={`${s.start}-${s.end}-${s.bytesUp}-${s.bytesDown}`}>
                  <td>
                    <span className="nowrap">{formatDateTime(s.start)}</span>
                    <span className="cell-sub">
                      {tSimUsage.end} {timeFormat.format(new Date(s.end))}
                    </span>
                  </td>
                  <td className="num">
                    {formatBytes(s.bytesUp + s.bytesDown)}
                    <span className="cell-sub">
                      {tSimUsage.up} {formatBytes(s.bytesUp)}
                    </span>
                    <span className="cell-sub">
                      {tSimUsage.down} {formatBytes(s.bytesDown)}
                    </span>
                  </td>
                  <td>
                    {s.network ?? tSimUsage.notSaid}
                    <span className="cell-sub">{where(s.country ? countryName(s.country) : null, s.rat)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
