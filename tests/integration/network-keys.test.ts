// The network's integration keys (server/network/keys.ts, decision 034): answered once and stored as a hash, looked
// up while live only, revoked at once, at most NETWORK_KEYS_MAX_ACTIVE live, each change in the audit trail.
import { describe, expect, it } from 'vitest';
import { NETWORK_KEYS_MAX_ACTIVE } from '#domain/network/schemas.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { NetworkKey } from '#server/db/entities.ts';
import {
  createNetworkKey,
  listNetworkKeys,
  lookUpNetworkKey,
  revokeNetworkKey,
  wellFormedNetworkKey,
} from '#server/network/keys.ts';
import { useDemoOrm } from '#tests/helpers/orm.ts';

const db = useDemoOrm();

async function superAdmin() {
  const [row] = await db.orm.em
    .fork()
    .execute<Array<{ id: number }>>('select id from app_user where is_super_admin limit 1');
  if (!row) throw new Error('the demo data has no super admin');
  return { userId: row.id, actingCompanyId: null };
}

describe('network keys', () => {
  it('are answered once, stored as a hash, found while live, and revoked at once with the trail', async () => {
    const actor = await superAdmin();
    const em = db.orm.em.fork();
    const made = await createNetworkKey(em, actor, { name: 'mediation-1' });
    expect(wellFormedNetworkKey(made.key)).toBe(true);
    expect(made.key.startsWith(made.prefix)).toBe(true);
    const row = await db.orm.em.fork().findOneOrFail(NetworkKey, { id: made.id });
    expect(row.hash).not.toContain(made.key.slice(3));
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);

    expect(await lookUpNetworkKey(db.orm.em.fork(), made.key)).toEqual({
      kind: 'networkKey',
      id: made.id,
      name: 'mediation-1',
    });
    // Another key of the same shape, and a company's API key, are no network key.
    expect(await lookUpNetworkKey(db.orm.em.fork(), `sn_${'A'.repeat(43)}`)).toBeNull();
    expect(await lookUpNetworkKey(db.orm.em.fork(), `sp_${made.key.slice(3)}`)).toBeNull();

    const listed = (await listNetworkKeys(db.orm.em.fork())).find((k) => k.id === made.id);
    expect(listed).toMatchObject({ name: 'mediation-1', prefix: made.prefix, status: 'active', revokedAt: null });
    expect(listed?.lastUsedAt).not.toBeNull();

    const revoked = await revokeNetworkKey(db.orm.em.fork(), actor, made.id);
    expect(revoked.status).toBe('revoked');
    expect(await lookUpNetworkKey(db.orm.em.fork(), made.key)).toBeNull();

    const trail = await db.orm.em
      .fork()
      .execute<Array<{ action: string; kind: string }>>(
        `select action, kind from audit_event where target_type = 'NetworkKey' and target_id = ? order by id`,
        [String(made.id)],
      );
    expect(trail).toEqual([
      { action: 'networkKeyCreated', kind: 'security' },
      { action: 'networkKeyRevoked', kind: 'security' },
    ]);
  });

  it('refuses a key past the live maximum, and takes one again once a key is revoked', async () => {
    const actor = await superAdmin();
    const live = (await listNetworkKeys(db.orm.em.fork())).filter((k) => k.status === 'active').length;
    const made = [];
    for (let i = live; i < NETWORK_KEYS_MAX_ACTIVE; i++)
      made.push(await createNetworkKey(db.orm.em.fork(), actor, { name: `source-${i}` }));
    await expect(createNetworkKey(db.orm.em.fork(), actor, { name: 'one-too-many' })).rejects.toThrow(
      tNetwork.errors.tooMany(NETWORK_KEYS_MAX_ACTIVE),
    );
    const first = made[0];
    if (!first) throw new Error('no key was made');
    await revokeNetworkKey(db.orm.em.fork(), actor, first.id);
    await expect(createNetworkKey(db.orm.em.fork(), actor, { name: 'one-too-many' })).resolves.toMatchObject({
      prefix: expect.stringMatching(/^sn_/) as unknown,
    });
  });
});
