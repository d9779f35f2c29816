// The webhook outbox: an event is written in the same transaction, or the same statement, as the
// change it reports, so there is no event without its change and no change without its event.
// Decision (docs/decisions/011): an event is written only when the company has an enabled endpoint subscribed
// to its type (a cheap indexed EXISTS), and its deliveries (one per such endpoint) in the same statement; the
// worker then only reads deliveries. A company without webhooks pays one EXISTS per change.
import type { Em } from '#server/db/orm.ts';
import type { WebhookEventType } from '#domain/webhooks/events.ts';

const subscribed = (type: WebhookEventType, alias: string) =>
  `${alias}.company_id = ?::int and ${alias}.enabled and '${type}' = any(${alias}.events)`;

/**
 * Two data-modifying CTEs (to put after the change's own, with a leading comma) writing one event per row of
 * `rowsSql` (a select of a jsonb column `data`) and its deliveries. Its parameters: `outboxParams`, in the
 * fragment's place among the statement's.
 */
export function outboxCtes(name: string, type: WebhookEventType, rowsSql: string): string {
  return `, ${name}_ev as (
    insert into webhook_event (id, company_id, type, data)
    select gen_random_uuid(), ?::int, '${type}', r.data from (${rowsSql}) r
    where exists (select 1 from webhook_endpoint w where ${subscribed(type, 'w')})
    returning id
  ), ${name}_dl as (
    insert into webhook_delivery (event_id, endpoint_id)
    select x.id, w.id from ${name}_ev x join webhook_endpoint w on ${subscribed(type, 'w')}
  )`;
}

/** The parameters of `outboxCtes` (rowParams: those of its rowsSql). */
export const outboxParams = (companyId: number, rowParams: unknown[] = []) => [
  companyId,
  ...rowParams,
  companyId,
  companyId,
];

/** One event of a single change, inside the change's transaction (`tx`). */
export async function enqueueEvent(
  tx: Em,
  companyId: number,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  await tx.execute(
    `with src as (select 1)${outboxCtes('o', type, 'select ?::jsonb as data')} select 1`,
    outboxParams(companyId, [JSON.stringify(data)]),
  );
}
