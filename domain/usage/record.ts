// A usage record as the network's mediation sends it (JSON keys and CSV header alike, docs/decisions/033), checked
// and normalised: what the ingest stores, or the Swedish reason it is refused. Pure.
import { iccidMessages, iccidProblem, normalizeIccid } from '#domain/sims/iccid.ts';
import { tUsage } from '#domain/texts/usage.ts';
import { parseOffsetTime } from './time.ts';

/** The contract's field names, in the order of a CSV file's columns. */
export const USAGE_FIELDS = [
  'recordId',
  'iccid',
  'start',
  'end',
  'bytesUp',
  'bytesDown',
  'network',
  'country',
  'rat',
  'imei',
] as const;

export const RECORD_ID_MAX = 100;
export const RAT_MAX = 16;
/** The longest interval one record may cover (an interim record covers 15 minutes, a closing one less). */
export const MAX_INTERVAL_HOURS = 24;
/** How far ahead of the portal's clock a start may be (the network's clock may run a little ahead). */
export const FUTURE_TOLERANCE_MS = 60 * 60 * 1000;

export type UsageRecord = {
  recordId: string;
  iccid: string;
  start: Date;
  end: Date;
  bytesUp: number;
  bytesDown: number;
  network: string | null;
  country: string | null;
  rat: string | null;
  imei: string | null;
};

export type Checked = { ok: true; record: UsageRecord } | { ok: false; reason: string };

/** What a record is checked against: the clock, and the oldest start the raw store keeps. */
export type RecordLimits = { now: Date; oldest: Date; retentionDays: number };

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** Each code asked once (asking Intl is slow beside the rest of a record's checks). */
const countries = new Map<string, boolean>();
const RAT = new RegExp(`^[A-Za-z0-9-]{1,${RAT_MAX}}$`);
const RECORD_ID_BAD = /[\p{Cc}\p{Cf}\s]/u;

/** An optional text field: absent, null or empty (a CSV cell) is null. */
function optional(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s === '' ? null : s;
}

function bytes(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,16}\s*$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** MCC-MNC as `240-01`: three digits, a dash (optional in), two or three digits. */
export function normalizeNetwork(v: string): string | null {
  const m = /^(\d{3})-?(\d{2,3})$/.exec(v);
  return m ? `${m[1]}-${m[2]}` : null;
}

/** An assigned ISO 3166 alpha-2 code, upper case; null otherwise. */
export function normalizeCountry(v: string): string | null {
  const code = v.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return null;
  let known = countries.get(code);
  if (known === undefined) countries.set(code, (known = code !== 'ZZ' && regions.of(code) !== undefined));
  return known ? code : null;
}

/** One record checked and normalised, or the first reason it is refused. */
export function checkUsageRecord(input: unknown, limits: RecordLimits): Checked {
  const no = (reason: string): Checked => ({ ok: false, reason });
  const r = tUsage.refused;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return no(r.notAnObject);
  const o = input as Record<string, unknown>;
  const recordId =
    typeof o.recordId === 'string' ? o.recordId.trim() : typeof o.recordId === 'number' ? String(o.recordId) : '';
  if (!recordId || recordId.length > RECORD_ID_MAX || RECORD_ID_BAD.test(recordId))
    return no(r.recordId(RECORD_ID_MAX));
  const iccid = typeof o.iccid === 'string' ? normalizeIccid(o.iccid) : '';
  const problem = iccidProblem(iccid);
  if (problem) return no(r.iccid(iccidMessages[problem]));
  const start = typeof o.start === 'string' ? parseOffsetTime(o.start) : null;
  if (!start) return no(r.time('start'));
  const end = typeof o.end === 'string' ? parseOffsetTime(o.end) : null;
  if (!end) return no(r.time('end'));
  if (end < start) return no(r.endBeforeStart);
  if (end.getTime() - start.getTime() > MAX_INTERVAL_HOURS * 3_600_000) return no(r.tooLong(MAX_INTERVAL_HOURS));
  if (start < limits.oldest) return no(r.tooOld(limits.retentionDays));
  if (start.getTime() > limits.now.getTime() + FUTURE_TOLERANCE_MS) return no(r.future);
  const bytesUp = bytes(o.bytesUp);
  if (bytesUp === null) return no(r.bytes('bytesUp'));
  const bytesDown = bytes(o.bytesDown);
  if (bytesDown === null) return no(r.bytes('bytesDown'));
  const networkIn = optional(o.network);
  const network = networkIn ? normalizeNetwork(networkIn) : networkIn;
  if (network === undefined || (networkIn && !network)) return no(r.network);
  const countryIn = optional(o.country);
  const country = countryIn ? normalizeCountry(countryIn) : countryIn;
  if (country === undefined || (countryIn && !country)) return no(r.country);
  const rat = optional(o.rat);
  if (rat === undefined || (rat && !RAT.test(rat))) return no(r.rat(RAT_MAX));
  const imei = optional(o.imei);
  if (imei === undefined || (imei && !/^\d{14,16}$/.test(imei))) return no(r.imei);
  return {
    ok: true,
    record: {
      recordId,
      iccid,
      start,
      end,
      bytesUp,
      bytesDown,
      network: network ?? null,
      country: country ?? null,
      rat,
      imei,
    },
  };
}
