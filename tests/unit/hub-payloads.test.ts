// The hub's NOTIFY payloads: a batch of events packed into JSON arrays under PostgreSQL's 8000-byte limit,
// in order, and unpacked again (also the single event an instance sent before batching).
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD, newToast, packPayloads, unpackPayload, type HubEvent } from '#server/events/hub.ts';

// The message not cut to newToast's 1,000 characters: the sizes here are the point.
const toast = (i: number, size: number): HubEvent => ({
  kind: 'toast',
  userId: i % 7,
  toast: { ...newToast('info', `Titel ${i} åäö "citat"`, ''), message: 'ä'.repeat(size) },
});

describe('hub payloads', () => {
  it('pack a large batch into payloads under the limit (in bytes, not characters), in order', () => {
    const events = Array.from({ length: 500 }, (_, i) => toast(i, i % 40 === 0 ? 3000 : 100 + (i % 50)));
    const payloads = packPayloads(events.map((e) => JSON.stringify(e)));
    expect(payloads.length).toBeGreaterThan(10);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD);
    expect(payloads.flatMap(unpackPayload)).toEqual(events);
    // Packed, not one event per payload: the next payload's events would not have fitted in the one before.
    for (let i = 0; i + 1 < payloads.length; i++)
      expect(Buffer.byteLength(payloads[i]!) + Buffer.byteLength(payloads[i + 1]!)).toBeGreaterThan(MAX_PAYLOAD);
    expect(payloads.length).toBeLessThan(events.length / 5);
  });

  it('put an event that fills a payload alone in its own, and nothing in an empty batch', () => {
    const big = JSON.stringify(toast(1, (MAX_PAYLOAD - 200) / 2));
    const small = JSON.stringify(toast(2, 10));
    const payloads = packPayloads([small, big, small]);
    expect(payloads).toEqual([`[${small}]`, `[${big}]`, `[${small}]`]);
    expect(packPayloads([])).toEqual([]);
  });

  it('unpack one event as sent before batching, and ignore a payload that is not JSON', () => {
    const e = toast(3, 5);
    expect(unpackPayload(JSON.stringify(e))).toEqual([e]);
    expect(unpackPayload('not json')).toEqual([]);
  });
});
