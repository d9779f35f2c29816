// What a company's rules did (issue 40): their firings, written by the evaluation (the usage ingest and the silence
// sweep), read here newest first a page at a time by keyset. The `before` of a page is opaque: the last row's time to
// the microsecond and its id, as base64url JSON (as GET /api/usage's cursor), refused on `before` if it is not one.
import { Invalid } from '#domain/errors.ts';
import { FIRINGS_PAGE } from '#domain/rules/kinds.ts';
import type { FiringsPage } from '#domain/rules/schemas.ts';
import { t } from '#domain/texts/common.ts';
import type { Em } from '#server/db/orm.ts';
import { getRule, iso } from './rules.ts';

type FiringRow = {
  id: string | number;
  sim_id: number;
  iccid: string;
  rule_id: number;
  rule_name: string;
  period: string;
  value: string | number;
  fired_at: Date | string;
  fired_key: string;
  paused: boolean;
  webhook: boolean;
  emailed_at: Date | string | null;
};

const CURSOR = 'ruleFirings';
const isTime = (k: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(k) && !Number.isNaN(Date.parse(k));
const isId = (k: string) => /^[1-9]\d{0,18}$/.test(k);

const beforeOf = (time: string, id: string) => Buffer.from(JSON.stringify([CURSOR, time, id])).toString('base64url');

/** The `before` read back: its time and id, or a 400 on `before` if it is not one this list made. */
function beforeKeys(before: string): [string, string] {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(before, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (
    Array.isArray(parts) &&
    parts.length === 3 &&
    parts[0] === CURSOR &&
    typeof parts[1] === 'string' &&
    typeof parts[2] === 'string' &&
    isTime(parts[1]) &&
    isId(parts[2])
  )
    return [parts[1], parts[2]];
  throw Invalid.field('before', t.errors.badCursor);
}

/**
 * What the company's rules did (or one rule's), newest first: FIRINGS_PAGE at a time, older than `before` (the
 * `next` of the page before: the last row's time to the microsecond and id). Walks rule_firing_company_index, or
 * rule_firing_rule_index for one rule.
 */
export async function listFirings(
  em: Em,
  companyId: number,
  opts: { ruleId?: number; before?: string },
): Promise<FiringsPage> {
  if (opts.ruleId !== undefined) await getRule(em, companyId, opts.ruleId);
  const keys = opts.before ? beforeKeys(opts.before) : null;
  const where = ['f.company_id = ?'];
  const params: unknown[] = [companyId];
  if (opts.ruleId !== undefined) {
    where.push('f.rule_id = ?');
    params.push(opts.ruleId);
  }
  if (keys) {
    where.push('(f.fired_at, f.id) < (?::timestamptz, ?::bigint)');
    params.push(keys[0], keys[1]);
  }
  const rows = await em.execute<FiringRow[]>(
    `select f.id, f.sim_id, s.iccid, f.rule_id, r.name as rule_name, f.period, f.value, f.fired_at,
       to_char(f.fired_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as fired_key, f.paused, f.webhook,
       f.emailed_at
     from rule_firing f join rule r on r.id = f.rule_id join sim s on s.id = f.sim_id
     where ${where.join(' and ')} order by f.fired_at desc, f.id desc limit ?`,
    [...params, FIRINGS_PAGE + 1],
  );
  const page = rows.slice(0, FIRINGS_PAGE);
  const last = page.at(-1);
  return {
    firings: page.map((r) => ({
      id: Number(r.id),
      simId: r.sim_id,
      iccid: r.iccid,
      ruleId: r.rule_id,
      ruleName: r.rule_name,
      period: r.period,
      value: Number(r.value),
      firedAt: iso(r.fired_at),
      paused: r.paused,
      webhook: r.webhook,
      emailedAt: r.emailed_at === null ? null : iso(r.emailed_at),
    })),
    next: rows.length > FIRINGS_PAGE && last ? beforeOf(last.fired_key, String(last.id)) : null,
  };
}
