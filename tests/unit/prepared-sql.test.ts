// The placeholders of a prepared statement (server/db/prepared.ts): `?` made `$n` in order, never inside quoted
// text or a comment; a literal question mark is refused rather than numbered wrongly.
import { describe, expect, it } from 'vitest';
import { numberedSql } from '#server/db/prepared.ts';
import { SESSION_SQL } from '#server/auth/sessions.ts';
import { HISTORY_SQL, ONE_SQL } from '#server/sims/read.ts';
import { listSql, WHOLE_LIST } from '#server/sims/search.ts';

describe('numberedSql', () => {
  it('numbers the placeholders in order', () => {
    expect(numberedSql('select * from t where a = ? and b in (?, ?) limit ?')).toBe(
      'select * from t where a = $1 and b in ($2, $3) limit $4',
    );
  });

  it('leaves question marks in quoted text and comments alone', () => {
    expect(numberedSql(`select 'a?b', "c?" from t -- why?\nwhere x = ?`)).toBe(
      `select 'a?b', "c?" from t -- why?\nwhere x = $1`,
    );
  });

  it('refuses a literal question mark and unterminated quotes', () => {
    expect(() => numberedSql('select data ?? ? from t')).toThrow(/question mark/);
    expect(() => numberedSql("select 'x from t where a = ?")).toThrow(/unterminated/);
  });

  it('numbers the hot reads as the bare baseline does (one $n per ?)', () => {
    for (const sql of [SESSION_SQL, ONE_SQL, HISTORY_SQL, listSql(WHOLE_LIST).page, listSql(WHOLE_LIST).count]) {
      const count = sql.split('?').length - 1;
      const text = numberedSql(sql);
      expect(text).not.toContain('?');
      expect([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]))).toEqual(
        Array.from({ length: count }, (_, i) => i + 1),
      );
    }
  });
});
