// The super admin's REST paths of the network keys and the usage kept aside (each answer checked against the
// OpenAPI document by tests/helpers/openapi-setup.ts): a key made (answered once, with its prefix), listed without
// the key, revoked (401 for it at the lookup, the list says so); the records kept aside newest first, a page at a
// time by `before` (one batch's instant split across pages, each record once), an edited `before` a 400 on that
// field; an owner of a company gets 403 on every one of them.
import { describe, expect, it } from 'vitest';
import { lookUpNetworkKey } from '#server/network/keys.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { useScreens } from '#tests/helpers/screens.ts';
import { unknownIccid } from '#tests/helpers/usage.ts';

const portal = useScreens({ browser: false });
const em = () => portal.server.services.orm.em.fork();

async function call(method: string, path: string, cookie: string, body?: unknown) {
  const headers: Record<string, string> = { cookie };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(portal.server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

describe('/api/admin/networkKeys', () => {
  it('makes a key answered once, lists it by prefix, revokes it', async () => {
    const admin = await portal.server.sessionCookie('admin@demo.test');
    const made = await call('POST', '/api/admin/networkKeys', admin, { name: 'mediation-rest' });
    expect(made.status).toBe(200);
    const { id, key, prefix } = made.data as { id: number; key: string; prefix: string };
    expect(key).toMatch(/^sn_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 11));
    expect(await lookUpNetworkKey(em(), key)).toMatchObject({ id, name: 'mediation-rest' });

    const bad = await call('POST', '/api/admin/networkKeys', admin, { name: 'två ord' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.data)).toContain('Ange ett namn med bokstäver');

    const list = await call('GET', '/api/admin/networkKeys', admin);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.data)).not.toContain(key);
    expect(list.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, prefix, status: 'active', createdBy: 'Admin Demo' })]),
    );

    const revoked = await call('POST', `/api/admin/networkKeys/revoke/${id}`, admin, {});
    expect(revoked.status).toBe(200);
    expect(revoked.data).toMatchObject({ id, status: 'revoked' });
    expect(await lookUpNetworkKey(em(), key)).toBeNull();
    expect((await call('POST', '/api/admin/networkKeys/revoke/999999', admin, {})).status).toBe(404);
  });

  it('is refused to a company owner', async () => {
    const owner = await portal.server.sessionCookie('ella@demo.test');
    expect((await call('GET', '/api/admin/networkKeys', owner)).status).toBe(403);
    expect((await call('POST', '/api/admin/networkKeys', owner, { name: 'agare' })).status).toBe(403);
    expect((await call('GET', '/api/admin/usageAside', owner)).status).toBe(403);
  });
});

describe('/api/admin/usageAside', () => {
  it('pages the records kept aside newest received first, each once', async () => {
    const start = Date.now() - 3 * 3_600_000;
    const record = (i: number) => ({
      recordId: `rest-${String(i).padStart(3, '0')}`,
      iccid: unknownIccid(1000 + i),
      start: new Date(start).toISOString(),
      end: new Date(start + 15 * 60_000).toISOString(),
      bytesUp: i,
      bytesDown: 2 * i,
    });
    await ingestUsage(em(), 'rest-gammal', [record(0)], { now: new Date(Date.now() - 60_000) });
    await ingestUsage(
      em(),
      'rest-ny',
      Array.from({ length: 24 }, (_, i) => record(i + 1)),
    );
    const admin = await portal.server.sessionCookie('admin@demo.test');
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const query: string = before ? `?limit=10&before=${encodeURIComponent(before)}` : '?limit=10';
      const page = await call('GET', `/api/admin/usageAside${query}`, admin);
      expect(page.status).toBe(200);
      const items = page.data.items as Array<{ recordId: string; source: string; bytesDown: number }>;
      seen.push(...items.map((r) => r.recordId));
      before = page.data.nextBefore as string | null;
      pages++;
    } while (before && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe('rest-024');
    expect(seen.at(-1)).toBe('rest-000');

    const edited = await call('GET', '/api/admin/usageAside?before=bm9wZQ', admin);
    expect(edited.status).toBe(400);
    expect(JSON.stringify(edited.data)).toContain('Ogiltig sidmarkering');
  });
});
