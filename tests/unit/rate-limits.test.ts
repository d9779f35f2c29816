// The limiter's arithmetic without a database: a shared row played by a counter that two instances' limiters add
// to, as the upsert does. When each instance syncs (a chunk of a twentieth, a hit weighing a chunk or more at
// once, a second), what Remaining says in between, and what a list longer than the budget costs.
import { describe, expect, it } from 'vitest';
import type { Em } from '#server/db/orm.ts';
import { RateLimiter } from '#server/http/rate-limits.ts';

/** The shared counter rows, as the upsert keeps them (a newer window starts afresh); `syncs` counts the statements. */
function sharedRow() {
  const rows = new Map<string, { count: number; window: number }>();
  const row = { count: 0, syncs: 0 };
  const em = {
    getConnection: () => ({
      execute: (_sql: string, params: unknown[]) => {
        const [key, delta, window] = params as [string, number, Date];
        const old = rows.get(key);
        const next =
          old && old.window >= window.getTime()
            ? { count: old.count + delta, window: old.window }
            : { count: delta, window: window.getTime() };
        rows.set(key, next);
        row.syncs++;
        row.count = next.count;
        return Promise.resolve([{ count: next.count }]);
      },
    }),
  } as unknown as Em;
  return { row, em };
}

const at = new Date('2026-11-26T12:00:10Z');

describe('RateLimiter', () => {
  it('syncs in chunks of a twentieth of the budget, and a hit weighing a chunk or more at once', async () => {
    const { row, em } = sharedRow();
    const limiter = new RateLimiter();
    // Budget 600: a chunk is 30. The first hit syncs (no sync yet this second), the next 29 wait.
    await limiter.hit(em, 'user:1', 600, 1, at);
    expect(row.syncs).toBe(1);
    for (let i = 0; i < 29; i++) await limiter.hit(em, 'user:1', 600, 1, at);
    expect(row.syncs).toBe(1);
    expect(row.count).toBe(1);
    const chunkFull = await limiter.hit(em, 'user:1', 600, 1, at);
    expect(row.syncs).toBe(2);
    expect(row.count).toBe(31);
    expect(chunkFull).toMatchObject({ allowed: true, limit: 600, remaining: 569 });
    // A list of 100 rows is more than a chunk: written at once.
    const list = await limiter.hit(em, 'user:1', 600, 100, at);
    expect(row.syncs).toBe(3);
    expect(row.count).toBe(131);
    expect(list.remaining).toBe(469);
    // A second later the next hit syncs whatever is pending.
    await limiter.hit(em, 'user:1', 600, 1, at);
    expect(row.syncs).toBe(3);
    await limiter.hit(em, 'user:1', 600, 1, new Date(at.getTime() + 1000));
    expect(row.syncs).toBe(4);
    expect(row.count).toBe(133);
  });

  it("lets an instance's Remaining lag another's hits by at most a chunk, and refuses once the sum is over", async () => {
    const { row, em } = sharedRow();
    const [a, b] = [new RateLimiter(), new RateLimiter()];
    await a.hit(em, 'apiKey:7', 40, 1, at); // chunk 2; synced (first hit)
    await b.hit(em, 'apiKey:7', 40, 1, at); // synced: sees both
    expect(row.count).toBe(2);
    for (let i = 0; i < 36; i++) await b.hit(em, 'apiKey:7', 40, 1, at);
    expect(row.count).toBe(38);
    // a has not synced since: it still believes 39 are left, one hit away from its chunk.
    const stale = await a.hit(em, 'apiKey:7', 40, 1, at);
    expect(stale.remaining).toBe(38);
    expect(row.count).toBe(38);
    // Its next hit fills the chunk and syncs: 40 spent in all, and the hit after that is refused.
    expect((await a.hit(em, 'apiKey:7', 40, 1, at)).remaining).toBe(0);
    expect(row.count).toBe(40);
    const over = await a.hit(em, 'apiKey:7', 40, 1, at);
    expect(over).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 50 });
  });

  it('charges a list longer than the budget the whole budget, only in an untouched window', async () => {
    const { em } = sharedRow();
    const limiter = new RateLimiter();
    expect(await limiter.hit(em, 'user:2', 600, 10_000, at)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.hit(em, 'user:2', 600, 10_000, at)).allowed).toBe(false);
    const used = new RateLimiter();
    await used.hit(em, 'user:3', 600, 1, at);
    expect(await used.hit(em, 'user:3', 600, 10_000, at)).toMatchObject({ allowed: false, remaining: 599 });
    // The next minute starts afresh.
    const next = new Date(at.getTime() + 60_000);
    expect(await used.hit(em, 'user:3', 600, 10_000, next)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('spends several budgets all or none, and answers the tightest (the least left; of equals, the smaller)', async () => {
    const { em } = sharedRow();
    const limiter = new RateLimiter();
    const key = { key: 'apiKey:1', max: 30 };
    const other = { key: 'apiKey:2', max: 30 };
    const company = { key: 'company:1', max: 50 };
    // 29 of the key and 49 of the company left: the key's.
    expect(await limiter.spend(em, [key, company], 1, at)).toMatchObject({ allowed: true, limit: 30, remaining: 29 });
    for (let i = 0; i < 20; i++) await limiter.spend(em, [other, company], 1, at);
    // 28 of the key and 28 of the company left: of equals, the smaller budget.
    expect(await limiter.spend(em, [key, company], 1, at)).toMatchObject({ limit: 30, remaining: 28 });
    await limiter.spend(em, [other, company], 1, at);
    // 27 of the key and 26 of the company left: the company's.
    expect(await limiter.spend(em, [key, company], 1, at)).toMatchObject({ limit: 50, remaining: 26 });
    // A list the key could take but the company cannot is refused by the company and costs the key nothing.
    const refused = await limiter.spend(em, [key, company], 27, at);
    expect(refused).toMatchObject({ allowed: false, limit: 50, remaining: 26, refusedBy: company });
    expect(await limiter.spend(em, [key, company], 1, at)).toMatchObject({ limit: 50, remaining: 25 });
    expect(await limiter.hit(em, 'apiKey:1', 30, 1, at)).toMatchObject({ allowed: true, remaining: 25 });
  });
});
