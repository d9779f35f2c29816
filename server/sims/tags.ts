// A SIM's tags (issue 40; domain/sims/tags.ts): added and removed on a list of SIMs or on every SIM a search finds in
// one statement, whatever their number (set-based: 100,000 SIMs are one insert and one delete, never a row at a
// time), and read for a page of SIMs in one statement.
import { TAGS_PER_SIM, type TagChangeInput } from '#domain/sims/tags.ts';
import type { Em } from '#server/db/orm.ts';
import { readRows } from '#server/db/prepared.ts';
import { listFilter } from './search.ts';

/**
 * One statement: the SIMs (`target`), their tags before (`before`), the removals, the SIMs that still fit their
 * added tags within TAGS_PER_SIM (`fits`), the additions; then how many SIMs changed and how many were too full.
 * The removals' and additions' tags are two disjoint lists (a tag in both is only added).
 */
const changeSql = (target: string) => `with
  target as materialized (${target}),
  adds as (select distinct a as tag from jsonb_array_elements_text(?::jsonb) a),
  removes as (select distinct r as tag from jsonb_array_elements_text(?::jsonb) r),
  before as materialized (
    select x.id, count(t.tag) as n, count(t.tag) filter (where t.tag in (select tag from adds)) as present
      from target x left join sim_tag t on t.company_id = ? and t.sim_id = x.id
     group by x.id),
  removed as (
    delete from sim_tag t using target x
     where t.company_id = ? and t.sim_id = x.id and t.tag in (select tag from removes)
     returning t.sim_id),
  removed_per as (select sim_id, count(*) as k from removed group by sim_id),
  fits as (
    select b.id, b.present from before b left join removed_per r on r.sim_id = b.id
     where b.n - coalesce(r.k, 0) + ((select count(*) from adds) - b.present) <= ${TAGS_PER_SIM}),
  added as (
    insert into sim_tag (company_id, sim_id, tag)
    select ?, f.id, a.tag from fits f cross join adds a
    -- In key order: two changes of overlapping SIMs at once wait for each other instead of deadlocking.
    order by f.id, a.tag
    on conflict do nothing
    returning sim_id)
select (select count(*) from (select sim_id from removed union select sim_id from added) c)::int as changed,
       (select count(*) from before b
         where b.present < (select count(*) from adds) and b.id not in (select id from fits))::int as full`;

/**
 * Adds and removes tags on the company's active SIMs of `ids`, or on every active SIM the search `q` finds ("" for
 * all), narrowed by the list's `tag` and `status` as /sims is: the SIMs whose tags changed, and the SIMs left as they
 * were because the added tags would have made them more than TAGS_PER_SIM. Another company's SIM, or one not active, is not among them.
 */
export async function changeTags(
  em: Em,
  companyId: number,
  input: Pick<TagChangeInput, 'ids' | 'q' | 'tag' | 'status' | 'add' | 'remove'>,
): Promise<{ changed: number; full: number }> {
  const add = [...new Set(input.add)];
  const remove = [...new Set(input.remove)].filter((tag) => !add.includes(tag));
  let target: string;
  let params: unknown[];
  if (input.ids) {
    target = `select s.id from sim s where s.company_id = ? and s.status = 'active' and s.id = any(?::int[])`;
    params = [companyId, `{${input.ids.map((id) => Math.trunc(id)).join(',')}}`];
  } else {
    const filter = await listFilter(em, companyId, input.q, input.tag, input.status);
    target = `select s.id from sim s where ${filter.where}`;
    params = filter.params;
  }
  const [row] = await em.execute<Array<{ changed: number; full: number }>>(changeSql(target), [
    ...params,
    JSON.stringify(add),
    JSON.stringify(remove),
    companyId,
    companyId,
    companyId,
  ]);
  return { changed: Number(row?.changed ?? 0), full: Number(row?.full ?? 0) };
}

/** Text order as the database's `order by tag` of the webhooks and answers (code points; no locale). */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The tags of a SIM just activated (at most TAGS_PER_CALL, so within TAGS_PER_SIM), in its transaction. */
export async function addTagsToNewSim(
  tx: Em,
  companyId: number,
  simId: number,
  tags: readonly string[],
): Promise<void> {
  await tx.execute(
    `insert into sim_tag (company_id, sim_id, tag) select ?, ?, t from jsonb_array_elements_text(?::jsonb) t
     on conflict do nothing`,
    [companyId, simId, JSON.stringify(tags)],
  );
}

/** A probe of sim_tag's key per SIM (one plan whatever the number of ids: a long list once read the company's tags). */
export const TAGS_OF_SQL = `select x.id as sim_id, t.tags from unnest(?::int[]) x(id)
  cross join lateral (select json_agg(tag order by tag) as tags from sim_tag where company_id = ? and sim_id = x.id) t
  where t.tags is not null`;

/** The tags of one of the company's SIMs, in text order (what its webhook events carry). */
export async function tagsOfSim(em: Em, companyId: number, id: number): Promise<string[]> {
  return (await tagsOfSims(em, companyId, [id])).get(id) ?? [];
}

/** SQL: a SIM's tags as a JSON array in text order ([] when none), for the events a set-based statement writes. */
export const tagsJsonSql = (companyId: string, simId: string) =>
  `coalesce((select jsonb_agg(g.tag order by g.tag) from sim_tag g where g.company_id = ${companyId} and g.sim_id = ${simId}), '[]'::jsonb)`;

/** The tags of the company's SIMs of `ids` (one statement, each a probe of the key), in text order, by id. */
export async function tagsOfSims(em: Em, companyId: number, ids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (ids.length === 0) return out;
  const rows = await readRows<{ sim_id: number; tags: string[] | string }>(em, TAGS_OF_SQL, [
    `{${ids.map((id) => Math.trunc(id)).join(',')}}`,
    companyId,
  ]);
  for (const r of rows) out.set(Number(r.sim_id), tagsFromRow(r));
  return out;
}

/** A row of TAGS_OF_SQL's tags as a list (the driver gives json as text or parsed). */
export function tagsFromRow(r: { tags: string[] | string }): string[] {
  const tags: unknown = typeof r.tags === 'string' ? JSON.parse(r.tags) : r.tags;
  return Array.isArray(tags) ? tags.map(String) : [];
}

/** How many of the company's tags are listed at most (in text order). */
export const COMPANY_TAGS_MAX = 1_000;

/**
 * The company's tags in text order (at most COMPANY_TAGS_MAX): a skip scan of sim_tag's (company, tag) index, one
 * probe per tag, whatever the number of SIMs that have them (nothing counted).
 */
export const COMPANY_TAGS_SQL = `with recursive t(tag) as (
       (select tag from sim_tag where company_id = ? order by tag limit 1)
       union all
       select (select s.tag from sim_tag s where s.company_id = ? and s.tag > t.tag order by s.tag limit 1)
         from t where t.tag is not null)
     select tag from t where tag is not null limit ${COMPANY_TAGS_MAX}`;

/** The company's tags (COMPANY_TAGS_SQL). */
export async function companyTags(em: Em, companyId: number): Promise<string[]> {
  const rows = await em.execute<Array<{ tag: string }>>(COMPANY_TAGS_SQL, [companyId, companyId]);
  return rows.map((r) => r.tag);
}

/**
 * Renames a tag on every SIM of the company that has it (a SIM that has both keeps one): the SIMs changed. One
 * transaction, two statements on the tag's rows.
 */
export async function renameTag(em: Em, companyId: number, from: string, to: string): Promise<number> {
  if (from === to) return 0;
  return em.transactional(async (tx) => {
    const [row] = await tx.execute<Array<{ n: number }>>(
      `with gone as (
         delete from sim_tag a where a.company_id = ? and a.tag = ?
            and exists (select 1 from sim_tag b where b.company_id = a.company_id and b.sim_id = a.sim_id and b.tag = ?)
         returning a.sim_id)
       select count(*)::int as n from gone`,
      [companyId, from, to],
    );
    // Counted in the database: a tag half a fleet has is 500,000 rows, never sent back one id each.
    const [moved] = await tx.execute<Array<{ n: number }>>(
      `with moved as (update sim_tag set tag = ? where company_id = ? and tag = ? returning 1)
       select count(*)::int as n from moved`,
      [to, companyId, from],
    );
    // Its usage by day goes with it (added to the other's where both had usage: a SIM that had both counted in each).
    await tx.execute(
      `with gone as (delete from usage_tag_day where company_id = ? and tag = ?
         returning day, bytes_up, bytes_down, records)
       insert into usage_tag_day (company_id, tag, day, bytes_up, bytes_down, records)
       select ?, ?, day, bytes_up, bytes_down, records from gone order by day
       on conflict (company_id, tag, day) do update set bytes_up = usage_tag_day.bytes_up + excluded.bytes_up,
         bytes_down = usage_tag_day.bytes_down + excluded.bytes_down, records = usage_tag_day.records + excluded.records`,
      [companyId, from, companyId, to],
    );
    return Number(row?.n ?? 0) + Number(moved?.n ?? 0);
  });
}

/** Removes a tag from every SIM of the company, and its usage by day: the SIMs changed. */
export async function deleteTag(em: Em, companyId: number, tag: string): Promise<number> {
  const [row] = await em.execute<Array<{ n: number }>>(
    `with gone as (delete from sim_tag where company_id = ? and tag = ? returning sim_id),
       usage as (delete from usage_tag_day where company_id = ? and tag = ? returning 1)
     select count(*)::int as n from gone`,
    [companyId, tag, companyId, tag],
  );
  return Number(row?.n ?? 0);
}
