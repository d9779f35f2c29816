// Fan-out of the hub's events to event streams (server/http/sse.ts), on a real hub (PGlite's listen, or
// PostgreSQL's LISTEN/NOTIFY with DATABASE_URL) and real Node writables as the streams' responses: each
// stream gets its user's toasts in order, a logout in the middle of a batch ends only that session's stream
// after the toasts before it, and a client that stops reading is dropped past MAX_UNSENT_BYTES.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '#server/auth/sessions.ts';
import { initOrm, type Orm } from '#server/db/orm.ts';
import { createHub, newToast, type Hub, type Toast } from '#server/events/hub.ts';
import { createStreams, MAX_UNSENT_BYTES, type Streams } from '#server/http/sse.ts';
import { createLogger } from '#server/log.ts';
import { freshDatabase } from '#tests/helpers/db.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let orm: Orm;
let hub: Hub;
let streams: Streams;

beforeAll(async () => {
  db = await freshDatabase();
  orm = await initOrm(db.target);
  hub = await createHub(orm, {
    databaseUrl: db.target.kind === 'postgres' ? db.target.url : undefined,
    log: createLogger('warn'),
  });
  streams = createStreams(hub);
});

afterAll(async () => {
  streams.closeAll();
  await hub.close();
  await orm.close(true);
  await db.drop();
});

const session = (id: string, userId: number): SessionInfo => ({
  id,
  userId,
  name: `Användare ${userId}`,
  email: `u${userId}@test.se`,
  companyId: 1,
  ownCompanyId: 1,
  companyName: 'Test AB',
  actingCompanyId: null,
  isSuperAdmin: false,
  stage: 'full',
  method: 'link',
  steppedUpAt: null,
  hasPasskey: false,
  passkeyRequired: false,
  role: 'member',
  isCompanyOwner: false,
  expiresAt: new Date(Date.now() + 3_600_000),
  flash: null,
});

/** A response that takes what is written (or, stuck, never finishes a write: its unsent bytes grow). */
function response(opts: { stuck?: boolean } = {}) {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      if (!opts.stuck) done();
    },
  });
  return { sink, text: () => text, ended: () => sink.writableEnded || sink.destroyed };
}

const ids = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);
const toastFor = (userId: number, toast: Toast) => hub.publish({ kind: 'toast', userId, toast });

describe('event stream fan-out', () => {
  it('gives every stream of a user that user’s toasts, in order, and ends a session’s stream after the toasts before its logout', async () => {
    const [a1, a2, b] = [response(), response(), response()];
    streams.open(session('s-a1', 101), a1.sink);
    streams.open(session('s-a2', 101), a2.sink);
    streams.open(session('s-b', 102), b.sink);
    expect(a1.text()).toMatch(/^retry: \d+\n: connected\n\n$/);
    const before = [newToast('info', 'Ett', ''), newToast('info', 'Två', '')];
    const after = newToast('info', 'Tre', '');
    const forB = newToast('error', 'Annan', 'åäö "citat"');
    // One tick: one batch, with the logout of a1's session between the toasts.
    await Promise.all([
      ...before.map((t) => toastFor(101, t)),
      toastFor(102, forB),
      hub.publish({ kind: 'sessionEnded', sessionId: 's-a1' }),
      toastFor(101, after),
    ]);
    await expect.poll(() => ids(a2.text()).length).toBe(3);
    expect(ids(a2.text())).toEqual([...before, after].map((t) => t.id));
    expect(ids(a1.text())).toEqual(before.map((t) => t.id));
    expect(a1.ended()).toBe(true);
    expect(a2.ended()).toBe(false);
    expect(ids(b.text())).toEqual([forB.id]);
    const data = JSON.parse(b.text().match(/^data: (.*)$/m)![1]!);
    expect(data).toEqual({ id: forB.id, type: 'error', title: 'Annan', message: 'åäö "citat"' });
    a2.sink.end();
    b.sink.end();
    await expect.poll(() => streams.count()).toBe(0);
  });

  it('closes the stream of a client that stops reading once over MAX_UNSENT_BYTES, and the user’s other stream goes on', async () => {
    const stuck = response({ stuck: true });
    const reading = response();
    streams.open(session('s-stuck', 201), stuck.sink);
    streams.open(session('s-reading', 201), reading.sink);
    // Toasts of about 1,000 bytes, in rounds so the hub's statements stay small.
    const sent: Toast[] = [];
    while (!stuck.ended()) {
      const round = Array.from({ length: 200 }, () => newToast('info', 'Fylld', 'x'.repeat(1000)));
      sent.push(...round);
      await Promise.all(round.map((t) => toastFor(201, t)));
      expect(sent.length).toBeLessThan((3 * MAX_UNSENT_BYTES) / 1000);
      // The round has gone out: the client that reads has it all (the stuck one was written the same).
      await expect.poll(() => ids(reading.text()).length).toBe(sent.length);
    }
    expect(stuck.sink.writableLength).toBeGreaterThan(MAX_UNSENT_BYTES);
    await expect.poll(() => ids(reading.text()).length).toBe(sent.length);
    expect(ids(reading.text())).toEqual(sent.map((t) => t.id));
    expect(reading.ended()).toBe(false);
    expect(streams.count()).toBe(1);
    reading.sink.end();
  });
});
