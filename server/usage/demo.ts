// The demo's usage (issue 39): 90 days of traffic for the demo SIMs (server/db/demo-sims.ts), made from a seeded
// random so that every run on the same clock gives the same records, and fed through ingestUsage like every other
// record (source "demo"). A daily rhythm in Swedish time (by day more than by night, weekdays more than weekends),
// sessions as 15-minute interim records over the last two days and one record per session (at most 8 hours)
// before that, so the seed stays a few hundred records a SIM; one SIM near its plan's data amount this month, one
// roaming on trips abroad, two silent for 2 and 8 days. `liveDemoRecords` is what `usage:simulate` sends.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Em } from '#server/db/orm.ts';
import { User } from '#server/db/entities.ts';
import { createNetworkKey } from '#server/network/keys.ts';
import { USAGE_ZONE, swedishMonth } from '#domain/usage/time.ts';
import { demoPlans } from '#server/db/demo-plans.ts';
import { demoSims, type DemoSim, type DemoTraffic } from '#server/db/demo-sims.ts';
import { ingestUsage, type IngestCounts } from './ingest.ts';
import { rawOldest, USAGE_RAW_DAYS } from './partitions.ts';

/** The records' source, and the name of the demo's network key. */
export const DEMO_SOURCE = 'demo';
/** Days of interim records every 15 minutes; older days have a record per session. */
const FINE_DAYS = 2;
const SESSION_MAX_HOURS = 8;
const BATCH = 5_000;
const HOUR = 3_600_000;
const QUARTER = 15 * 60_000;

export type DemoRecord = {
  recordId: string;
  iccid: string;
  start: string;
  end: string;
  bytesUp: number;
  bytesDown: number;
  network: string;
  country: string;
  rat: string;
};

/** A number in [0, 1) from the SIM, the hour and a salt: the same on every run (a 32-bit integer hash). */
export function demoRandom(sim: number, hour: number, salt: number): number {
  let h = Math.imul(sim + 1, 0x9e3779b1) ^ Math.imul(hour, 0x85ebca6b) ^ Math.imul(salt + 7, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 4_294_967_296;
}

const localParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: USAGE_ZONE,
  hour: '2-digit',
  weekday: 'short',
  hourCycle: 'h23',
});

/** The Swedish hour of the day and whether it is a weekend, per UTC hour (asked of Intl once each). */
const localHours = new Map<number, { hour: number; weekend: boolean }>();
function local(at: Date): { hour: number; weekend: boolean } {
  const key = Math.floor(at.getTime() / HOUR);
  let found = localHours.get(key);
  if (!found) {
    const parts = localParts.formatToParts(at);
    found = {
      hour: Number(parts.find((p) => p.type === 'hour')?.value ?? 0),
      weekend: ['Sat', 'Sun'].includes(parts.find((p) => p.type === 'weekday')?.value ?? ''),
    };
    if (localHours.size > 10_000) localHours.clear();
    localHours.set(key, found);
  }
  return found;
}

/** How busy a SIM of this rhythm is in the Swedish hour holding `at` (0-1). */
export function demoActivity(rhythm: DemoTraffic['rhythm'], at: Date): number {
  const { hour, weekend } = local(at);
  if (rhythm === 'steady') return hour >= 7 && hour < 19 ? 0.9 : 0.6;
  if (weekend) return hour >= 9 && hour < 18 ? 0.15 : 0.03;
  if (hour >= 7 && hour < 17) return hour === 12 ? 0.6 : 0.95;
  if (hour === 6 || (hour >= 17 && hour < 20)) return 0.3;
  return 0.05;
}

type Hour = { at: number; bytes: number; network: string; country: string };

/** Where the SIM is in the hour at `at`: at home, or on one of its trips. */
function place(t: DemoTraffic, at: number, now: number): { network: string; country: string } {
  for (const [ago, days, network, country] of t.trips ?? []) {
    const from = now - ago * 24 * HOUR;
    if (at >= from && at < from + days * 24 * HOUR) return { network, country };
  }
  return { network: t.network, country: 'SE' };
}

/** The SIM's active hours from `first` to now, with their bytes; a session continues more often than it starts. */
function activeHours(index: number, t: DemoTraffic, first: number, now: number): Hour[] {
  const hours: Hour[] = [];
  const silentFrom = now - t.silentHours * HOUR;
  let on = false;
  for (let at = first; at < now; at += HOUR) {
    const h = at / HOUR;
    const a = demoActivity(t.rhythm, new Date(at));
    const p: number = t.rhythm === 'steady' ? 0.97 : on ? Math.min(0.95, a + 0.3) : a * 0.8;
    on = demoRandom(index, h, 1) < p;
    if (!on || (t.silentHours > 0 && at + HOUR > silentFrom)) continue;
    const bytes = Math.round(t.hourly * Math.max(a, 0.2) * (0.5 + demoRandom(index, h, 2)));
    hours.push({ at, bytes, ...place(t, at, now) });
  }
  return hours;
}

function record(sim: DemoSim, t: DemoTraffic, index: number, start: number, end: number, bytes: number): DemoRecord {
  const up = Math.round(bytes * ((t.rhythm === 'steady' ? 0.6 : 0.12) + 0.1 * demoRandom(index, start / 60_000, 3)));
  return {
    recordId: `${sim.iccid}-${start}`,
    iccid: sim.iccid,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    bytesUp: up,
    bytesDown: bytes - up,
    network: '',
    country: '',
    rat: t.rat,
  };
}

/** The SIM's records: one per session (up to 8 hours) before the last two days, one per 15 minutes after. */
function simRecords(sim: DemoSim, t: DemoTraffic, index: number, first: number, now: number): DemoRecord[] {
  const fineFrom = now - FINE_DAYS * 24 * HOUR;
  const out: DemoRecord[] = [];
  let session: Hour[] = [];
  const close = () => {
    const head = session[0];
    const last = session[session.length - 1];
    if (!head || !last) return;
    const bytes = session.reduce((sum, h) => sum + h.bytes, 0);
    out.push({ ...record(sim, t, index, head.at, Math.min(last.at + HOUR, now), bytes), ...place(t, head.at, now) });
    session = [];
  };
  for (const h of activeHours(index, t, first, now)) {
    const prev = session[session.length - 1];
    const joins = prev && prev.at + HOUR === h.at && prev.network === h.network && session.length < SESSION_MAX_HOURS;
    if (!joins || h.at >= fineFrom) close();
    if (h.at < fineFrom) {
      session.push(h);
      continue;
    }
    // The last two days: an interim record every 15 minutes of the hour (the current hour up to now).
    const weights = [0, 1, 2, 3].map((q) => 0.5 + demoRandom(index, h.at / QUARTER + q, 4));
    const total = weights.reduce((a, b) => a + b, 0);
    weights.forEach((w, q) => {
      const start = h.at + q * QUARTER;
      if (start >= now) return;
      const end = Math.min(start + QUARTER, now);
      const share = Math.round((h.bytes * w) / total);
      out.push({ ...record(sim, t, index, start, end, share), network: h.network, country: h.country });
    });
  }
  close();
  return out;
}

/** Scales this month's records so that their sum is the share of the plan's data amount (at least one record). */
function nearLimit(records: DemoRecord[], sim: DemoSim, t: DemoTraffic, index: number, now: number): DemoRecord[] {
  const share = t.monthShare ?? 0;
  const plan = demoPlans.find((p) => p.code === (sim.change?.plan ?? sim.plan));
  if (!plan?.dataLimit) return records;
  const target = Math.round(share * plan.dataLimit * 1e6);
  const month = swedishMonth(new Date(now));
  const mine = records.filter((r) => swedishMonth(new Date(r.start)) === month);
  const sum = mine.reduce((s, r) => s + r.bytesUp + r.bytesDown, 0);
  if (sum === 0) {
    // The month began minutes ago: one record since then carries the month's use.
    const back = [QUARTER, 60_000, 1000, 0].find((ms) => swedishMonth(new Date(now - ms)) === month) ?? 0;
    return [...records, { ...record(sim, t, index, now - back, now, target), network: t.network, country: 'SE' }];
  }
  let left = target;
  mine.forEach((r, i) => {
    const bytes = i === mine.length - 1 ? left : Math.round(((r.bytesUp + r.bytesDown) * target) / sum);
    left -= bytes;
    r.bytesUp = Math.round(bytes * 0.15);
    r.bytesDown = bytes - r.bytesUp;
  });
  return records;
}

/** The file in the data directory (DATA_DIR, git-ignored) holding the demo's network key for `usage:simulate`. */
export const DEMO_KEY_FILE = 'demo-network-key';

/**
 * A network key named "demo", made as the demo's super admin (in the trail like any other) and written to
 * DEMO_KEY_FILE in `dataDir`, readable by its owner only: a random key of this install, never a fixed one, and only
 * where the demo data is seeded. `usage:simulate` reads it; a super admin revokes it on /admin/network.
 */
export async function seedDemoNetworkKey(em: Em, dataDir: string): Promise<string> {
  const admin = await em.findOneOrFail(User, { email: 'admin@demo.test' });
  const { key } = await createNetworkKey(em, { userId: admin.id, actingCompanyId: null }, { name: DEMO_SOURCE });
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DEMO_KEY_FILE);
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return file;
}

/** Every demo record from the oldest start the raw store keeps up to `now`, in order of SIM and start. */
export function demoUsageRecords(now: Date, rawDays = USAGE_RAW_DAYS): DemoRecord[] {
  const end = now.getTime();
  const first = Math.ceil(rawOldest(now, rawDays).getTime() / HOUR) * HOUR;
  return demoSims.flatMap((sim, index) => {
    const t = sim.traffic;
    if (!t || sim.off) return [];
    const records = simRecords(sim, t, index, first, end);
    return t.monthShare ? nearLimit(records, sim, t, index, end) : records;
  });
}

/** Seeds the demo's usage through ingestUsage; returns the counts (taken is every record on an empty store). */
export async function seedDemoUsage(em: Em, now = new Date()): Promise<IngestCounts> {
  const records = demoUsageRecords(now);
  const total: IngestCounts = { taken: 0, duplicates: 0, unknownIccid: 0, refused: [] };
  for (let i = 0; i < records.length; i += BATCH) {
    const counts = await ingestUsage(em.fork(), DEMO_SOURCE, records.slice(i, i + BATCH), { now });
    total.taken += counts.taken;
    total.duplicates += counts.duplicates;
    total.unknownIccid += counts.unknownIccid;
    total.refused.push(...counts.refused);
  }
  return total;
}

/**
 * What `usage:simulate` sends at `now`: a record per live demo SIM for the time since its last one (`since`), with
 * bytes by the same rhythm; ids from the SIM and the interval's start, so a batch sent again counts once.
 */
export function liveDemoRecords(now: Date, since: Date): DemoRecord[] {
  const seconds = Math.max(1, (now.getTime() - since.getTime()) / 1000);
  return demoSims.flatMap((sim, index) => {
    const t = sim.traffic;
    if (!t || sim.off || t.silentHours > 0) return [];
    const a = demoActivity(t.rhythm, now);
    const bytes = Math.round(((t.hourly * Math.max(a, 0.1) * seconds) / 3600) * (0.5 + Math.random()));
    const r = record(sim, t, index, since.getTime(), now.getTime(), bytes);
    return [{ ...r, recordId: `live-${r.recordId}`, ...place(t, now.getTime(), now.getTime()) }];
  });
}
