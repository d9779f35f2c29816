// The staff-company migration (docs/decisions/014) on a database with data from before it: every
// super admin moves out of the customer company into the one staff company; everyone else stays. The entities
// and the migrated schema agree.
import { describe, expect, it } from 'vitest';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const BEFORE = 'Migration20261123083000_api_keys';
const STAFF = 'Migration20261125030000_staff_company';

const db = useFreshOrm();

const rows = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);

describe('the staff-company migration', () => {
  it('moves every super admin into the staff company and leaves the customers’ users where they were', async () => {
    await db.orm.migrator.up({ to: BEFORE });
    const companies = await rows<{ id: number }>(
      `insert into company (name, customer_number, invoice_note, invoice_interval, created_at, updated_at)
       values ('Kund AB', '100001', '', 'monthly', now(), now()), ('Annan AB', 'PERSONAL', '', 'monthly', now(), now())
       returning id`,
    );
    const [kund, annan] = companies.map((c) => c.id);
    await rows(
      `insert into app_user (name, email, company_id, role, is_super_admin, created_at) values
       ('Admin', 'admin@kund.se', ?, 'owner', true, now()),
       ('Ägare', 'agare@kund.se', ?, 'owner', false, now()),
       ('Annans admin', 'admin@annan.se', ?, 'member', true, now())`,
      [kund, kund, annan],
    );

    expect((await db.orm.migrator.up({ to: STAFF })).map((m) => m.name)).toEqual([STAFF]);
    const staff = await rows<{ id: number; name: string; customer_number: string }>(
      `select id, name, customer_number from company where is_staff`,
    );
    expect(staff).toHaveLength(1);
    // 'PERSONAL' was a customer's number already: the staff company takes another.
    expect(staff[0]!.customer_number).toMatch(/^PERSONAL-\d+$/);
    const users = await rows<{ email: string; company_id: number; role: string }>(
      `select email, company_id, role from app_user order by id`,
    );
    expect(users).toEqual([
      { email: 'admin@kund.se', company_id: staff[0]!.id, role: 'owner' },
      { email: 'agare@kund.se', company_id: kund, role: 'owner' },
      { email: 'admin@annan.se', company_id: staff[0]!.id, role: 'member' },
    ]);
    // One staff company at most.
    await expect(
      rows(
        `insert into company (name, customer_number, invoice_note, invoice_interval, is_staff, created_at, updated_at)
         values ('Två', 'X2', '', 'monthly', true, now(), now())`,
      ),
    ).rejects.toThrow();
    await db.orm.migrator.up();
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');
  });

  it('goes down and up again', async () => {
    await db.orm.migrator.down({ to: BEFORE });
    await db.orm.migrator.up();
    expect(await rows(`select 1 from company where is_staff`)).toHaveLength(1);
  });
});
