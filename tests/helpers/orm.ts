// An ORM on a fresh database of the test file's own, not migrated: the migration tests decide what runs.
import { afterAll, beforeAll } from 'vitest';
import { Company } from '#server/db/entities.ts';
import { initOrm, migrate, type Orm } from '#server/db/orm.ts';
import { seedDemo } from '#server/db/seed.ts';
import { freshDatabase } from './db.ts';

/** Opens the ORM before the file's tests, closes it and drops the database after; `orm` is there meanwhile. */
export function useFreshOrm(): { readonly orm: Orm } {
  let orm: Orm | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const db = await freshDatabase();
    drop = db.drop;
    orm = await initOrm(db.target);
  });
  afterAll(async () => {
    await orm?.close(true);
    await drop?.();
  });
  return {
    get orm() {
      if (!orm) throw new Error('The ORM exists only while the test file runs.');
      return orm;
    },
  };
}

/**
 * An ORM on a fresh database of the test file's own (or the describe block's), migrated and with the demo data;
 * `companyId` is Demo AB's.
 */
export function useDemoOrm(): { readonly orm: Orm; readonly companyId: number } {
  const db = useFreshOrm();
  let companyId = 0;
  beforeAll(async () => {
    await migrate(db.orm);
    await seedDemo(db.orm.em.fork());
    companyId = (await db.orm.em.fork().findOneOrFail(Company, { customerNumber: '100001' })).id;
  });
  return {
    get orm() {
      return db.orm;
    },
    get companyId() {
      return companyId;
    },
  };
}
