// The roles migration on a database with data from before it: owners become owner, everyone else
// member, and the old audit rows land in their company's trail with a kind. Down and up again keep the owners.
import { describe, expect, it } from 'vitest';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const BEFORE = 'Migration20261122135829_sim_list_index';
const ROLES = 'Migration20261123074507_roles';

const db = useFreshOrm();

const rows = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);

describe('the roles migration', () => {
  it('makes owners owner and the rest member, and files the old audit rows under their company', async () => {
    await db.orm.migrator.up({ to: BEFORE });
    const [c] = await rows<{ id: number }>(
      `insert into company (name, customer_number, invoice_note, invoice_interval, created_at, updated_at)
       values ('Gamla AB', 'OLD-1', '', 'monthly', now(), now()) returning id`,
    );
    const users = await rows<{ id: number; email: string }>(
      `insert into app_user (name, email, company_id, is_company_owner, is_super_admin, created_at) values
       ('Ägaren', 'agare@gamla.se', ?, true, false, now()),
       ('Anställd', 'anstalld@gamla.se', ?, false, false, now()),
       ('Admin', 'admin@gamla.se', ?, true, true, now()) returning id, email`,
      [c!.id, c!.id, c!.id],
    );
    const id = (email: string) => users.find((u) => u.email === email)!.id;
    await rows(
      `insert into audit_event (who_id, acting_company_id, action, target_type, target_id, at) values
       (?, null, 'updateUser', 'User', ?, now()),
       (?, ?, 'loginAsCompany', 'Company', ?, now()),
       (?, null, 'updateCompany', 'Company', ?, now())`,
      [id('admin@gamla.se'), id('anstalld@gamla.se'), id('admin@gamla.se'), c!.id, c!.id, id('admin@gamla.se'), c!.id],
    );

    const applied = await db.orm.migrator.up({ to: ROLES });
    expect(applied.map((m) => m.name)).toEqual([ROLES]);
    const roles = await rows<{ email: string; role: string }>(`select email, role from app_user order by id`);
    expect(roles).toEqual([
      { email: 'agare@gamla.se', role: 'owner' },
      { email: 'anstalld@gamla.se', role: 'member' },
      { email: 'admin@gamla.se', role: 'owner' },
    ]);
    const audit = await rows<{ action: string; kind: string; company_id: number }>(
      `select action, kind, company_id from audit_event order by id`,
    );
    expect(audit).toEqual([
      { action: 'updateUser', kind: 'user', company_id: c!.id },
      { action: 'loginAsCompany', kind: 'support', company_id: c!.id },
      { action: 'updateCompany', kind: 'company', company_id: c!.id },
    ]);
    // The entities and the migrated schema (with the later migrations) agree.
    await db.orm.migrator.up();
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');
    // Only the three roles are stored.
    await expect(rows(`update app_user set role = 'chef' where email = 'agare@gamla.se'`)).rejects.toThrow();
  });

  it('goes down to the owner flag and up again without losing an owner', async () => {
    await db.orm.migrator.down({ to: BEFORE });
    const flags = await rows<{ email: string; is_company_owner: boolean }>(
      `select email, is_company_owner from app_user order by id`,
    );
    expect(flags.map((f) => f.is_company_owner)).toEqual([true, false, true]);
    await db.orm.migrator.up();
    const roles = await rows<{ role: string }>(`select role from app_user order by id`);
    expect(roles.map((r) => r.role)).toEqual(['owner', 'member', 'owner']);
  });
});
