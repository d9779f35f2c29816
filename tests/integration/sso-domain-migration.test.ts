// The migration that makes a single sign-on domain wait for its proof, on a database with domains saved before it:
// each keeps its company and gets a token of its own, none is proved (so none routes until its company adds the
// TXT record), and two companies may now claim one domain while only one may have it proved.
import { describe, expect, it } from 'vitest';
import { useFreshOrm } from '#tests/helpers/orm.ts';

const BEFORE = 'Migration20261126140000_idempotency';
const PROOF = 'Migration20261128070000_sso_domain_proof';

const db = useFreshOrm();

const rows = <T>(sql: string, params: unknown[] = []) => db.orm.em.fork().execute<T[]>(sql, params);

describe('the SSO domain proof migration', () => {
  it('keeps the saved domains unproved, each with its own token; one proved company per domain', async () => {
    await db.orm.migrator.up({ to: BEFORE });
    const [a, b] = (
      await rows<{ id: number }>(
        `insert into company (name, customer_number, invoice_note, invoice_interval, created_at, updated_at)
         values ('A AB', 'MIG-A', '', 'monthly', now(), now()), ('B AB', 'MIG-B', '', 'monthly', now(), now())
         returning id`,
      )
    ).map((c) => c.id);
    await rows(`insert into sso_domain (domain, company_id) values ('a-sso.se', ?), ('a2-sso.se', ?)`, [a, a]);

    expect((await db.orm.migrator.up({ to: PROOF })).map((m) => m.name)).toEqual([PROOF]);
    const saved = await rows<{ domain: string; company_id: number; verification_token: string; verified_at: null }>(
      `select domain, company_id, verification_token, verified_at from sso_domain order by domain`,
    );
    expect(saved.map((r) => [r.domain, r.company_id, r.verified_at])).toEqual([
      ['a-sso.se', a, null],
      ['a2-sso.se', a, null],
    ]);
    expect(saved[0]!.verification_token).toMatch(/^[0-9a-f]{32}$/);
    expect(saved[0]!.verification_token).not.toBe(saved[1]!.verification_token);

    // Another company may claim it too; only one may have it proved.
    await rows(`insert into sso_domain (domain, company_id, verification_token) values ('a-sso.se', ?, 'b-token')`, [
      b,
    ]);
    await rows(`update sso_domain set verified_at = now() where domain = 'a-sso.se' and company_id = ?`, [a]);
    await expect(
      rows(`update sso_domain set verified_at = now() where domain = 'a-sso.se' and company_id = ?`, [b]),
    ).rejects.toThrow();
    // The migrations after it too: then the schema is the entities' (and each later one goes down again below).
    await db.orm.migrator.up();
    expect((await db.orm.schema.getUpdateSchemaSQL()).trim()).toBe('');

    await rows(`delete from sso_domain where company_id = ?`, [b]);
    await db.orm.migrator.down({ to: BEFORE });
    await db.orm.migrator.up();
    expect(await rows(`select 1 from sso_domain`)).toHaveLength(2);
  });
});
