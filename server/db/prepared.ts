// The hot reads of every request (the session, an API key, the SIM list, one SIM and its history) as named
// prepared statements on PostgreSQL: each pooled connection parses and plans such a statement once and then
// only binds and runs it. MikroORM's `execute` inlines the parameters into the SQL text, so PostgreSQL parses,
// analyses and plans every query anew, which cost more than running these small queries (measured: about
// half of the database's CPU per REST request). The statement's name is derived from its SQL, so every connection
// and every instance use the same one.
//
// Same rows as `em.execute`: the same pg pool (MikroORM's, with its type parsers, size and acquire timeout),
// the same SQL with `?` made `$n`. Where a statement cannot be prepared, it goes through `em.execute` as before:
// on PGlite (one connection, MikroORM serialises it), inside a transaction (the query must run on the
// transaction's connection), and when DATABASE_PREPARED_STATEMENTS=off (a transaction-mode connection pooler
// older than PgBouncer 1.21 does not keep a statement on one server connection).
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Em, Orm } from './entity-manager.ts';

type Statement = { name: string; text: string };

/** The pools that prepare statements, by MikroORM connection (registered by initOrm). */
const pools = new WeakMap<object, pg.Pool>();
const statements = new Map<string, Statement>();

/** Makes the ORM's reads through `readRows` / `readRow` use named prepared statements on its pg pool. */
export function usePreparedStatements(orm: Orm, pool: pg.Pool): void {
  pools.set(orm.em.getConnection(), pool);
}

/**
 * `?` placeholders made `$1`, `$2`, ... in order, outside quoted text ('...', "...") and comments. A `??`
 * (MikroORM's escaped question mark, e.g. jsonb's `?` operator) is not a placeholder and is refused: such a
 * statement is not one of the hot reads this module is for.
 */
export function numberedSql(sql: string): string {
  return placeholdersAs(sql, (n) => `$${n}`);
}

/** The SQL with its n-th `?` placeholder (from 1, as numberedSql finds them) made `mark(n)`. */
function placeholdersAs(sql: string, mark: (n: number) => string): string {
  let n = 0;
  let out = '';
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charAt(i);
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) throw new Error('unterminated quoted text in a prepared statement');
      out += sql.slice(i, end + 1);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      out += end < 0 ? sql.slice(i) : sql.slice(i, end);
      i = end < 0 ? sql.length : end - 1;
    } else if (c === '?') {
      if (sql[i + 1] === '?') throw new Error('a prepared statement cannot hold a literal question mark');
      out += mark(++n);
    } else out += c;
  }
  return out;
}

function statementOf(sql: string): Statement {
  let s = statements.get(sql);
  if (!s) {
    s = { name: `sim_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, text: numberedSql(sql) };
    statements.set(sql, s);
  }
  return s;
}

/** The pool to prepare on, or null where the query must go through MikroORM. */
function poolFor(em: Em): pg.Pool | null {
  if (em.isInTransaction()) return null;
  return pools.get(em.getConnection()) ?? null;
}

/** The rows of a read (SQL with `?` placeholders), through a named prepared statement where one can be used. */
export async function readRows<T extends object>(em: Em, sql: string, params: unknown[]): Promise<T[]> {
  const pool = poolFor(em);
  if (!pool) return em.execute<T[]>(sql, params);
  const { name, text } = statementOf(sql);
  const result = await pool.query<T & pg.QueryResultRow>({ name, text, values: params });
  return result.rows;
}

/** The first row of a read, or undefined; see readRows. */
export async function readRow<T extends object>(em: Em, sql: string, params: unknown[]): Promise<T | undefined> {
  return (await readRows<T>(em, sql, params))[0];
}

/**
 * The rows of a read straight on the pool like readRows, but as an unnamed statement: PostgreSQL plans it for these
 * values every time (a custom plan), for a statement whose best plan depends on them (the invoice specification's
 * batches: a generic plan read a company's whole index for each). Through MikroORM where readRows would be.
 */
export async function readRowsPlannedEachTime<T extends object>(em: Em, sql: string, params: unknown[]): Promise<T[]> {
  const pool = poolFor(em);
  if (!pool) return em.execute<T[]>(sql, params);
  const result = await pool.query<T & pg.QueryResultRow>({ text: statementOf(sql).text, values: params });
  return result.rows;
}
