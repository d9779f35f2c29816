// How fresh a company's usage is ("Data till och med 14:45"): the end of the latest record taken for any of its
// SIMs. One probe of usage_last_seen's (company_id, at desc) index, whatever the fleet's size.
import type { Em } from '#server/db/orm.ts';
import { readRow } from '#server/db/prepared.ts';

export const AS_OF_SQL = 'select at from usage_last_seen where company_id = ? order by at desc limit 1';

export async function usageAsOf(em: Em, companyId: number): Promise<Date | null> {
  const row = await readRow<{ at: Date | string }>(em, AS_OF_SQL, [companyId]);
  return row ? new Date(row.at) : null;
}
