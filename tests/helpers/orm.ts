// An ORM on a fresh database of the test file's own, not migrated: the migration tests decide what runs.
import { afterAll, beforeAll } from 'vitest';
import { initOrm, type Orm } from '../../server/db/orm.js';
import { freshDatabase } from './db.js';

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
