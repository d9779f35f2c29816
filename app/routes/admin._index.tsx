// /admin: the admin menu: the companies, the audit log of them all, and the network's keys for the usage feed.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { t } from '#domain/texts/common.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { requireSuperAdmin } from '#app/utils/auth.server.ts';

export const meta: MetaFunction = () => [{ title: `${tAdmin.title} – ${t.appName}` }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSuperAdmin(request, context);
  return null;
}

export default function AdminMenu() {
  return (
    <>
      <h1>{tAdmin.title}</h1>
      <nav className="menu" aria-label={tAdmin.title}>
        <Link className="btn btn-primary" to="/admin/companies">
          {tAdmin.companiesButton}
        </Link>
        <Link className="btn" to="/admin/audit">
          {tAdmin.auditButton}
        </Link>
        <Link className="btn" to="/admin/network">
          {tNetwork.adminButton}
        </Link>
      </nav>
    </>
  );
}
