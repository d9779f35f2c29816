// Home: the menu of the spec, then the company's overview (one procedure call: usage.overview).
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { LogoutForm } from '#app/components/LogoutForm.tsx';
import { Overview, type OverviewView } from '#app/components/usage/Overview.tsx';
import { grouped, t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { formatDateTime } from '#app/utils/text.ts';
import { callerRole, WRITE_ROLES } from '#domain/companies/kinds.ts';
import { formatBytes, usageAgainstPlan } from '#domain/usage/format.ts';
import { useLiveUsage } from '#app/utils/live-usage.ts';

const o = tCompanyUsage.overview;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const role = callerRole(session);
  const v = await context.trpc.usage.overview();
  const overview: OverviewView = {
    activeSims: grouped(v.activeSims),
    today: formatBytes(v.today),
    thisMonth: formatBytes(v.thisMonth),
    lastMonth: formatBytes(v.lastMonth),
    lastMonthToDate: formatBytes(v.lastMonthToDate),
    silent: v.silent.exact
      ? v.silent.count === 0
        ? o.silentNone
        : o.silentCount(grouped(v.silent.count))
      : o.silentMore(grouped(v.silent.count)),
    top: v.top.map((s) => ({
      id: s.id,
      iccid: s.iccid,
      plan: s.plan,
      used: usageAgainstPlan(s.bytes, s.dataLimitMb).text,
    })),
    bulk: v.bulk.map((b) => ({
      key: b.at,
      when: formatDateTime(b.at),
      what: b.action === 'bulkDeactivate' ? o.bulkDeactivate : o.bulkActivate,
      done: o.bulkDone(b.done, b.total),
    })),
    asOf: v.asOf ? formatDateTime(v.asOf) : null,
    todayLink: `/usage?from=${v.day}&to=${v.day}`,
    monthLink: `/usage?from=${v.lastMonthStart}&to=${v.day}&granularity=month`,
    bulkLink: role === 'owner' ? '/company/activity?kind=bulk' : null,
  };
  return {
    overview,
    isSuperAdmin: session.isSuperAdmin,
    name: session.name,
    companyName: session.companyName,
    // A viewer's menu has nothing that changes SIMs; an owner's has the company's own admin.
    writable: WRITE_ROLES.includes(role),
    isOwner: role === 'owner',
  };
}

export default function Home() {
  // New usage of the company shows without a reload (the event stream; at most every 10 s).
  useLiveUsage();
  const { isSuperAdmin, name, companyName, writable, isOwner, overview } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{t.home.title}</h1>
      <p className="muted">
        {name}, {companyName}
      </p>
      <nav className="menu" aria-label={t.home.title}>
        {writable ? (
          <>
            <Link className="btn btn-primary" to="/add">
              {t.home.activate}
            </Link>
            <Link className="btn" to="/add/bulk">
              {t.home.activateMany}
            </Link>
          </>
        ) : null}
        <Link className={writable ? 'btn' : 'btn btn-primary'} to="/sims">
          {t.home.list}
        </Link>
        <Link className="btn" to="/export">
          {t.home.export}
        </Link>
        <Link className="btn" to="/feedback">
          {t.home.feedback}
        </Link>
        {isOwner ? (
          <Link className="btn" to="/company">
            {tCompany.homeLink}
          </Link>
        ) : null}
        {isSuperAdmin ? (
          <Link className="btn btn-destructive" to="/admin">
            {t.home.admin}
          </Link>
        ) : null}
        <LogoutForm>{t.home.logout}</LogoutForm>
      </nav>
      <Overview view={overview} />
    </>
  );
}
