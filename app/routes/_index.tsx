// Home: the menu of the spec.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { LogoutForm } from '#app/components/LogoutForm.tsx';
import { t } from '#domain/texts/common.ts';
import { tCompany } from '#domain/texts/company.ts';
import { requireUser } from '#app/utils/auth.server.ts';
import { callerRole, WRITE_ROLES } from '#domain/companies/kinds.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = requireUser(request, context);
  const role = callerRole(session);
  return {
    isSuperAdmin: session.isSuperAdmin,
    name: session.name,
    companyName: session.companyName,
    // A viewer's menu has nothing that changes SIMs; an owner's has the company's own admin.
    writable: WRITE_ROLES.includes(role),
    isOwner: role === 'owner',
  };
}

export default function Home() {
  const { isSuperAdmin, name, companyName, writable, isOwner } = useLoaderData<typeof loader>();
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
    </>
  );
}
