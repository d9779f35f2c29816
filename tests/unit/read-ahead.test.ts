// readAhead (server/files/streams.ts): an export's next batch is read while the one before is written, never more
// than one ahead; a download stopped early leaves no read running and closes the source; a failed read is thrown
// where its batch is asked for, in order.
import { describe, expect, it } from 'vitest';
import { readAhead } from '#server/files/streams.ts';

/** A source of `n` batches that logs when each read starts and ends and whether it was closed. */
function source(n: number, log: string[], failAt = -1) {
  return (async function* () {
    try {
      for (let i = 0; i < n; i++) {
        log.push(`read ${i}`);
        await new Promise((r) => setTimeout(r, 5));
        if (i === failAt) throw new Error(`read ${i} failed`);
        log.push(`got ${i}`);
        yield i;
      }
    } finally {
      log.push('closed');
    }
  })();
}

describe('readAhead', () => {
  it('reads the next batch while the one before is written, one ahead at most', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    for await (const i of readAhead(source(3, log))) {
      log.push(`write ${i} start`);
      await new Promise((r) => setTimeout(r, 20));
      log.push(`write ${i} end`);
      seen.push(i);
    }
    expect(seen).toEqual([0, 1, 2]);
    // Batch 1 is read while batch 0 is written, and batch 2 not before batch 0's write ended.
    expect(log.indexOf('read 1')).toBeLessThan(log.indexOf('write 0 end'));
    expect(log.indexOf('got 1')).toBeLessThan(log.indexOf('write 0 end'));
    expect(log.indexOf('read 2')).toBeGreaterThan(log.indexOf('write 0 end'));
    // The source ended by itself (found reading ahead of the last batch).
    expect(log.filter((l) => l === 'closed')).toHaveLength(1);
  });

  it('stopped early, lets the read in flight end, then closes the source', async () => {
    const log: string[] = [];
    for await (const i of readAhead(source(10, log))) if (i === 1) break;
    expect(log).toEqual(['read 0', 'got 0', 'read 1', 'got 1', 'read 2', 'got 2', 'closed']);
  });

  it('throws a failed read where its batch is asked for, after the batches before it', async () => {
    const log: string[] = [];
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const i of readAhead(source(5, log, 2))) seen.push(i);
      })(),
    ).rejects.toThrow('read 2 failed');
    expect(seen).toEqual([0, 1]);
    expect(log.at(-1)).toBe('closed');
  });

  it('a failed read ahead of a download stopped before it is no unhandled rejection', async () => {
    const log: string[] = [];
    for await (const i of readAhead(source(5, log, 1))) if (i === 0) break;
    expect(log).toEqual(['read 0', 'got 0', 'read 1', 'closed']);
  });
});
