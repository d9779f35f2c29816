// The usage records kept aside (usage_aside: an ICCID that is no active SIM's), for the super admin: newest received
// first, a page at a time by keyset on (received_at, source, record_id, start), the order of the table's
// usage_aside_received_index (Migration20261128170000_usage_aside_list), so a page reads its own rows and one more,
// never a count nor the rows of other pages, however many a batch kept aside at the same instant.
import { Invalid } from '#domain/errors.ts';
import type { UsageAsidePage } from '#domain/network/aside-schemas.ts';
import { tNetwork } from '#domain/texts/network.ts';
import type { Em } from '#server/db/orm.ts';
import { readRows } from '#server/db/prepared.ts';

type Row = {
  received: string;
  start_key: string;
  source: string;
  record_id: string;
  iccid: string;
  start: Date | string;
  end: Date | string;
  bytes_up: string | number;
  bytes_down: string | number;
  network: string | null;
  country: string | null;
  received_at: Date | string;
};

// received_at and start in UTC to the microsecond: the cursor compares them exactly.
const UTC = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const COLUMNS = `to_char(received_at at time zone 'UTC', ${UTC}) as received,
  to_char(start at time zone 'UTC', ${UTC}) as start_key, source, record_id, iccid, start, "end",
  bytes_up, bytes_down, network, country, received_at`;
const ORDER = 'order by received_at desc, source desc, record_id desc, start desc limit ?';
const FIRST = `select ${COLUMNS} from usage_aside ${ORDER}`;
const AFTER = `select ${COLUMNS} from usage_aside
  where (received_at, source, record_id, start) < (?::timestamptz, ?, ?, ?::timestamptz) ${ORDER}`;

type Mark = [received: string, source: string, recordId: string, start: string];

const encode = (mark: Mark) => Buffer.from(JSON.stringify(mark)).toString('base64url');

function decode(before: string): Mark {
  const bad = () => Invalid.field('before', tNetwork.aside.errors.before);
  let mark: unknown;
  try {
    mark = JSON.parse(Buffer.from(before, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  // A time as the page wrote it: a real instant (no 31 February), so the database never refuses the cast.
  const time = (v: unknown) =>
    typeof v === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(v) &&
    !Number.isNaN(Date.parse(v)) &&
    new Date(v).toISOString().slice(0, 19) === v.slice(0, 19);
  const text = (v: unknown) => typeof v === 'string' && v.length <= 100;
  if (!Array.isArray(mark) || mark.length !== 4) throw bad();
  const [received, source, recordId, start] = mark as unknown[];
  if (!time(received) || !text(source) || !text(recordId) || !time(start)) throw bad();
  return mark as Mark;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** One page of the records kept aside, newest received first; nextBefore marks the next page (null: the last). */
export async function listUsageAside(em: Em, input: { before?: string; limit: number }): Promise<UsageAsidePage> {
  const rows = input.before
    ? await readRows<Row>(em, AFTER, [...decode(input.before), input.limit + 1])
    : await readRows<Row>(em, FIRST, [input.limit + 1]);
  const shown = rows.slice(0, input.limit);
  const last = shown.at(-1);
  return {
    items: shown.map((r) => ({
      receivedAt: iso(r.received_at),
      source: r.source,
      recordId: r.record_id,
      iccid: r.iccid,
      start: iso(r.start),
      end: iso(r.end),
      bytesUp: Number(r.bytes_up),
      bytesDown: Number(r.bytes_down),
      network: r.network,
      country: r.country,
    })),
    nextBefore:
      rows.length > input.limit && last ? encode([last.received, last.source, last.record_id, last.start_key]) : null,
  };
}
