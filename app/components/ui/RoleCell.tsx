// A company user's role in a user table, the same on the owner's /company and the super admin's company page:
// the column's header and the cell (the role's name; a super admin's flag after it, where the page knows it).
import { tCompany } from '#domain/texts/company.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import type { UserRole } from '#domain/companies/kinds.ts';

export const roleColumn = { header: tCompany.role };

export function RoleCell({ role, isSuperAdmin = false }: { role: UserRole; isSuperAdmin?: boolean }) {
  return (
    <span className="role-cell">
      {tCompany.roles[role]}
      {isSuperAdmin ? <span className="muted role-cell-admin">{tAdmin.user.isSuperAdmin}</span> : null}
    </span>
  );
}
