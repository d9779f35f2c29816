// The pure parts of continuous scanning on /add/bulk: the scanner machine's continuous mode (what an
// accepted code does, a code still in view, a repeat) and the offline queue kept in localStorage.
import { describe, expect, it } from 'vitest';
import {
  addToQueue,
  clearQueue,
  mergeIntoList,
  queueKey,
  QUEUE_MAX,
  readQueue,
  removeFromQueue,
  splitList,
  type QueueStorage,
} from '#app/bulk/queue.ts';
import {
  activatedIds,
  answered,
  applyChunk,
  CHUNK_SIZE,
  countRows,
  nextChunk,
  shownRows,
  startRows,
} from '#app/bulk/run.ts';
import { addToList, afterAccept, freshRead, SAME_CODE_MS, type ScannerState } from '#app/scanner/machine.ts';
import { BULK_MAX } from '#domain/sims/schemas.ts';

describe('continuous scanner mode', () => {
  it('keeps scanning after an accepted code, where a single scan stops the camera', () => {
    const states: ScannerState[] = ['scanning', 'paused'];
    for (const s of states) {
      expect(afterAccept('continuous', s)).toBe(s);
      expect(afterAccept('single', s)).toBe('notStarted');
    }
    expect(afterAccept('single', 'notStarted')).toBe('notStarted');
  });

  it('answers a code still in view once, a different code at once, and the same one again after a while', () => {
    expect(freshRead(null, 'a', 0)).toBe(true);
    const last = { code: 'a', at: 10_000 };
    expect(freshRead(last, 'a', 10_000 + SAME_CODE_MS - 1)).toBe(false);
    expect(freshRead(last, 'b', 10_001)).toBe(true);
    expect(freshRead(last, 'a', 10_000 + SAME_CODE_MS)).toBe(true);
    expect(freshRead(last, 'a', 10_050, 50)).toBe(true);
  });

  it('adds a new code at the end and ignores a repeat, leaving the list untouched', () => {
    const one = addToList([], '1');
    expect(one).toEqual({ kind: 'added', codes: ['1'] });
    const two = addToList(one.codes, '2');
    expect(two).toEqual({ kind: 'added', codes: ['1', '2'] });
    const again = addToList(two.codes, '1');
    expect(again).toEqual({ kind: 'repeat', codes: ['1', '2'] });
    expect(again.codes).not.toBe(two.codes);
  });
});

function memoryStorage(): QueueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe('offline queue', () => {
  const A = '89460000000000000001';
  const B = '89460000000000000002';
  const C = '89460000000000000003';

  it('keeps codes per owner, in scan order, without repeats', () => {
    const s = memoryStorage();
    expect(readQueue(s, '1.1')).toEqual([]);
    expect(addToQueue(s, '1.1', [A, B])).toEqual([A, B]);
    expect(addToQueue(s, '1.1', [B, C])).toEqual([A, B, C]);
    expect(readQueue(s, '1.1')).toEqual([A, B, C]);
    // Another user on the same device, or the same user acting for another company, sees nothing.
    expect(readQueue(s, '2.1')).toEqual([]);
    expect(readQueue(s, '1.2')).toEqual([]);
    expect([...s.map.keys()]).toEqual([queueKey('1.1')]);
  });

  it('removes answered codes, and the key itself once empty', () => {
    const s = memoryStorage();
    addToQueue(s, 'u', [A, B, C]);
    expect(removeFromQueue(s, 'u', [A, C])).toEqual([B]);
    expect(readQueue(s, 'u')).toEqual([B]);
    expect(removeFromQueue(s, 'u', new Set([B]))).toEqual([]);
    expect(s.map.size).toBe(0);
    addToQueue(s, 'u', [A]);
    clearQueue(s, 'u');
    expect(s.map.size).toBe(0);
  });

  it('reads garbage, foreign values and over-long lists as safely as it can', () => {
    const s = memoryStorage();
    for (const raw of ['not json', 'null', '[]', '{"codes":"x"}', '{"codes":[1,2]}']) {
      s.setItem(queueKey('u'), raw);
      expect(readQueue(s, 'u')).toEqual([]);
    }
    s.setItem(queueKey('u'), JSON.stringify({ codes: [A, '<script>', 'x'.repeat(40), A, '9'.repeat(31), B] }));
    expect(readQueue(s, 'u')).toEqual([A, B]);
    const many = Array.from({ length: QUEUE_MAX + 5 }, (_, i) => `8946${String(i).padStart(16, '0')}`);
    expect(addToQueue(s, 'big', many)).toHaveLength(QUEUE_MAX);
    expect(QUEUE_MAX).toBe(BULK_MAX);
  });

  it('survives a storage that throws (private mode, quota): nothing kept, nothing thrown', () => {
    const broken: QueueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(addToQueue(broken, 'u', [A])).toEqual([A]);
    expect(readQueue(broken, 'u')).toEqual([]);
    expect(() => clearQueue(broken, 'u')).not.toThrow();
    expect(readQueue(null, 'u')).toEqual([]);
  });

  it('merges waiting codes into the list text, one per line, without doubling what is there', () => {
    expect(splitList(` ${A},${B};\n${C}  `)).toEqual([A, B, C]);
    expect(mergeIntoList('', [A, B])).toBe(`${A}\n${B}\n`);
    expect(mergeIntoList(`${A}\n\n`, [A, B])).toBe(`${A}\n${B}\n`);
    expect(mergeIntoList(`${A}, ${B}`, [B, A])).toBe(`${A}, ${B}`);
  });
});

describe('a chunked run', () => {
  const list = Array.from({ length: 2 * CHUNK_SIZE + 20 }, (_, i) => `8946${String(i).padStart(16, '0')}`);

  it('tells repeats at once, sends the rest 500 at a time in list order, and counts as it goes', () => {
    expect(CHUNK_SIZE).toBe(500);
    let rows = startRows([...list, list[3]!, list[3]!]);
    expect(rows.filter((r) => r.outcome === 'duplicateInList')).toHaveLength(2);
    expect(countRows(rows)).toMatchObject({ pending: 1020, done: 2 });
    const sizes: number[] = [];
    for (let chunk = nextChunk(rows); chunk.length > 0; chunk = nextChunk(rows)) {
      sizes.push(chunk.length);
      rows = applyChunk(
        rows,
        chunk,
        chunk.map((i) => ({ iccid: rows[i]!.iccid, outcome: 'activated' as const, simId: i + 1 })),
      );
    }
    expect(sizes).toEqual([CHUNK_SIZE, CHUNK_SIZE, 20]);
    const { counts, pending, done } = countRows(rows);
    expect([counts.activated, counts.duplicateInList, pending, done]).toEqual([1020, 2, 0, 1022]);
    expect(activatedIds(rows)).toHaveLength(1020);
    expect(answered(rows)).toHaveLength(1022);
  });

  it('keeps what is done when a chunk is lost, and the next chunk is only the rest', () => {
    let rows = startRows(list);
    const first = nextChunk(rows);
    rows = applyChunk(
      rows,
      first,
      first.map((i) => ({ iccid: list[i]!, outcome: i === 0 ? ('alreadyActive' as const) : ('activated' as const) })),
    );
    // The second chunk never got an answer: its rows stay pending.
    expect(countRows(rows)).toMatchObject({ pending: 520, done: 500 });
    expect(nextChunk(rows)[0]).toBe(500);
    expect(answered(rows)).toEqual(list.slice(0, 500));
    expect(rows[0]).toMatchObject({ outcome: 'alreadyActive' });
  });
});

describe('the rows a page lists', () => {
  const row = (outcome: string, i: number) => ({ iccid: `8946${String(i).padStart(16, '0')}`, outcome });
  it('lists every row of a list of up to 1,000, each with its row number', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row('activated', i));
    const shown = shownRows(rows);
    expect(shown.hidden).toBe(0);
    expect(shown.rows.map((r) => r.n)).toEqual(rows.map((_, i) => i + 1));
  });
  it('of 10,000 rows lists only the problems, first 1,000 of them, with their row numbers in the list', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      row(i % 4 === 3 ? 'invalid' : i === 5 ? 'activeElsewhere' : 'activated', i),
    );
    const shown = shownRows(rows);
    expect(shown.rows).toHaveLength(1000);
    expect(shown.rows.slice(0, 3).map((r) => [r.n, r.outcome])).toEqual([
      [4, 'invalid'],
      [6, 'activeElsewhere'],
      [8, 'invalid'],
    ]);
    expect(shown.hidden).toBe(9000);
    expect(shownRows(rows.filter((r) => r.outcome === 'activated'))).toEqual({ rows: [], hidden: 7499 });
  });
});
