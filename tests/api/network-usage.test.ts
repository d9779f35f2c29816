// The usage feed's door (issue 39): POST /api/network/usage with a network integration key (decision 034), a
// batch of up to 10,000 records as { records: [...] }, answered with the counts of ingestUsage (taken,
// duplicates, unknown ICCID, refused with reasons); all or nothing, a batch sent again counts once, the
// Idempotency-Key replays; the key can do nothing else, and nothing else can send usage.
import { beforeAll, describe, expect, it } from 'vitest';
import { USAGE_BATCH_MAX } from '#domain/network/schemas.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { createNetworkKey, revokeNetworkKey } from '#server/network/keys.ts';
import { activeSims, num, unknownIccid } from '#tests/helpers/usage.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { openStream } from '#tests/helpers/sse.ts';
import { newToast } from '#server/events/hub.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();

type Answer = { status: number; headers: Headers; data: Record<string, unknown> & { error?: string } };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(portal.server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, data: text ? JSON.parse(text) : {} };
}

let key: string;
let keyId: number;
let admin: { userId: number; actingCompanyId: null };
const bearer = (k: string) => ({ authorization: `Bearer ${k}` });

/** A record of this SIM, `minutesAgo` before now, for 15 minutes. */
const record = (recordId: string, iccid: string, minutesAgo: number, bytes = 1000) => {
  const start = new Date(Date.now() - minutesAgo * 60_000);
  return {
    recordId,
    iccid,
    start: start.toISOString(),
    end: new Date(start.getTime() + 15 * 60_000).toISOString().replace('Z', '+00:00'),
    bytesUp: bytes,
    bytesDown: 2 * bytes,
    network: '240-01',
    country: 'SE',
    rat: 'LTE',
  };
};

beforeAll(async () => {
  const [row] = await em().execute<Array<{ id: number }>>('select id from app_user where is_super_admin limit 1');
  if (!row) throw new Error('the demo data has no super admin');
  admin = { userId: row.id, actingCompanyId: null };
  const made = await createNetworkKey(em(), admin, { name: 'mediation-test' });
  key = made.key;
  keyId = made.id;
});

const dayTotal = async (simId: number) =>
  num(
    (
      await em().execute<Array<{ b: string | null }>>(
        'select sum(bytes_up + bytes_down) as b from usage_day where sim_id = ?',
        [simId],
      )
    )[0]?.b ?? 0,
  );

describe('POST /api/network/usage', () => {
  it('takes a batch, counts it once when sent again, and keeps unknown ICCIDs aside', async () => {
    const [a, b] = await activeSims(em(), 2);
    if (!a || !b) throw new Error('the demo data has too few SIMs');
    const before = (await dayTotal(a.id)) + (await dayTotal(b.id));
    const batch = {
      records: [
        record('r-1', a.iccid, 60),
        record('r-2', a.iccid, 45),
        record('r-3', b.iccid, 30),
        record('r-4', unknownIccid(1), 30),
        { ...record('r-5', a.iccid, 20), bytesUp: -1 },
      ],
    };
    const first = await post('/api/network/usage', batch, bearer(key));
    expect(first.status).toBe(200);
    expect(first.data).toEqual({
      taken: 3,
      duplicates: 0,
      unknownIccid: 1,
      refused: [{ index: 4, reason: expect.stringContaining('bytesUp') as unknown }],
    });
    expect((await dayTotal(a.id)) + (await dayTotal(b.id)) - before).toBe(3 * 3000);
    const aside = await em().execute<Array<{ source: string }>>(
      `select source from usage_aside where record_id = 'r-4'`,
    );
    expect(aside).toEqual([{ source: 'mediation-test' }]);

    const again = await post('/api/network/usage', batch, bearer(key));
    expect(again.data).toMatchObject({ taken: 0, duplicates: 4, unknownIccid: 0 });
    expect((await dayTotal(a.id)) + (await dayTotal(b.id)) - before).toBe(3 * 3000);
  });

  it("tells the company's open pages once the batch is stored, with or without an Idempotency-Key, and no one else", async () => {
    const [a] = await activeSims(em(), 1);
    if (!a) throw new Error('the demo data has no SIM');
    const anna = await openStream(portal.server.url, await portal.server.sessionCookie('anna@demo.test'));
    const staff = await openStream(portal.server.url, await portal.server.sessionCookie('admin@demo.test'));
    await anna.waitFor(/retry: \d+/);
    await staff.waitFor(/retry: \d+/);
    const usageEvents = (text: string) => text.split('event: usage\n').length - 1;
    expect((await post('/api/network/usage', { records: [record('live-1', a.iccid, 50)] }, bearer(key))).status).toBe(
      200,
    );
    await anna.waitFor(/event: usage\ndata: \{\}\n\n/);
    const keyed = { ...bearer(key), 'idempotency-key': 'live-usage-1' };
    const second = record('live-2', a.iccid, 40);
    expect((await post('/api/network/usage', { records: [second] }, keyed)).status).toBe(200);
    await expect.poll(() => usageEvents(anna.text())).toBe(2);
    // A batch that takes nothing (a repeat) tells no one.
    expect((await post('/api/network/usage', { records: [second] }, bearer(key))).data).toMatchObject({ taken: 0 });
    // The staff's stream (another company): a toast published after the events comes down the same ordered
    // stream, so an event for it would have arrived first.
    const [row] = await em().execute<Array<{ id: number }>>(`select id from app_user where email = 'admin@demo.test'`);
    await portal.server.services.hub.publish({
      kind: 'toast',
      userId: Number(row?.id),
      toast: newToast('info', 'Efter', ''),
    });
    await staff.waitFor(/event: toast/);
    expect(usageEvents(staff.text())).toBe(0);
    expect(usageEvents(anna.text())).toBe(2);
    await anna.close();
    await staff.close();
  });

  it('replays an Idempotency-Key, and refuses it with another batch (422)', async () => {
    const [a] = await activeSims(em(), 1);
    if (!a) throw new Error('no SIM');
    const batch = { records: [record('idem-1', a.iccid, 50)] };
    const headers = { ...bearer(key), 'idempotency-key': `usage-${Date.now()}` };
    const first = await post('/api/network/usage', batch, headers);
    expect(first.data).toMatchObject({ taken: 1 });
    const replay = await post('/api/network/usage', batch, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.data).toEqual(first.data);
    const other = await post('/api/network/usage', { records: [record('idem-2', a.iccid, 50)] }, headers);
    expect(other.status).toBe(422);
  });

  it(`refuses more than ${USAGE_BATCH_MAX} records with 400, and stores none of them`, async () => {
    const [a] = await activeSims(em(), 1);
    if (!a) throw new Error('no SIM');
    const records = Array.from({ length: USAGE_BATCH_MAX + 1 }, (_, i) => record(`big-${i}`, a.iccid, 40));
    const res = await post('/api/network/usage', { records }, bearer(key));
    expect(res.status).toBe(400);
    expect(res.data.error).toBeTruthy();
    const [n] = await em().execute<Array<{ n: string }>>(
      `select count(*) as n from usage_record where record_id like 'big-%'`,
    );
    expect(num(n?.n)).toBe(0);
  });

  it('is the network key’s only door, and only a live network key opens it', async () => {
    const [a] = await activeSims(em(), 1);
    if (!a) throw new Error('no SIM');
    const batch = { records: [record('door-1', a.iccid, 10)] };
    // No key, a key of the right shape that is none, a session: 401 or 403, nothing taken.
    expect((await post('/api/network/usage', batch)).status).toBe(401);
    expect((await post('/api/network/usage', batch, bearer(`sn_${'x'.repeat(43)}`))).status).toBe(401);
    const cookie = await portal.server.sessionCookie('anna@demo.test');
    expect((await post('/api/network/usage', batch, { cookie })).status).toBe(403);
    // The network key anywhere else: refused, with what it is for.
    const list = await fetch(`${portal.server.url}/api/sim/all`, { headers: bearer(key) });
    expect(list.status).toBe(403);
    expect(((await list.json()) as { error: string }).error).toBe(tNetwork.errors.onlyUsage);
    const activate = await post('/api/sim', { iccid: a.iccid }, bearer(key));
    expect(activate.status).toBe(403);
    // Revoked: 401 at once.
    const spare = await createNetworkKey(em(), admin, { name: 'mediation-spare' });
    await revokeNetworkKey(em(), admin, spare.id);
    expect((await post('/api/network/usage', batch, bearer(spare.key))).status).toBe(401);
    const [n] = await em().execute<Array<{ n: string }>>(
      `select count(*) as n from usage_record where record_id = 'door-1'`,
    );
    expect(num(n?.n)).toBe(0);
    expect(keyId).toBeGreaterThan(0);
  });
});
