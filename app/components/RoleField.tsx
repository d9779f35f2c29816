// The role of a company user (issue 16): a select of owner, member and viewer, with what each may do.
import { t } from '~/texts';
import { USER_ROLES, type UserRole } from '../../server/company/kinds';
import { Field } from './Field';

export function RoleField({ id, value, error }: { id: string; value: string; error?: string }) {
  return (
    <Field id={id} label={t.company.role} error={error} hint={roleHint()}>
      {(aria) => (
        <select {...aria} name="role" required defaultValue={value}>
          {USER_ROLES.map((r) => (
            <option key={r} value={r}>
              {t.company.roles[r]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function roleHint() {
  return USER_ROLES.map((r: UserRole) => `${t.company.roles[r]}: ${t.company.roleHints[r]}`).join(' ');
}
