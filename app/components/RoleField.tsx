// The role of a company user: a select of owner, member and viewer, with what each may do.
import { tCompany } from '#domain/texts/company.ts';
import { USER_ROLES, type UserRole } from '#domain/companies/kinds.ts';
import { Field } from './Field.tsx';

export function RoleField({ id, value, error }: { id: string; value: string; error?: string }) {
  return (
    <Field id={id} label={tCompany.role} error={error} hint={roleHint()}>
      {(aria) => (
        <select {...aria} name="role" required defaultValue={value}>
          {USER_ROLES.map((r) => (
            <option key={r} value={r}>
              {tCompany.roles[r]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function roleHint() {
  return USER_ROLES.map((r: UserRole) => `${tCompany.roles[r]}: ${tCompany.roleHints[r]}`).join(' ');
}
