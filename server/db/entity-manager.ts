// The types of the open database: the MikroORM instance (initOrm in orm.ts makes it) and its SQL entity manager.
// A module of their own so that what orm.ts itself uses (prepared.ts) can name them without importing orm.ts.
import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/sql';

export type Orm = MikroORM & { em: SqlEntityManager };
export type Em = SqlEntityManager;
