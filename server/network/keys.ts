// The network's integration keys (decision 034): made and revoked by a super admin, each in the audit trail; the
// key is answered once, only its SHA-256 and a short prefix are stored; the lookup of a bearer key on the usage
// feed's door. A network key is the portal's own, not a company's, and can do nothing but send usage.
import { createHash, randomBytes } from 'node:crypto';
import { NotFound, Invalid } from '#domain/errors.ts';
import { NETWORK_KEYS_MAX_ACTIVE, type NetworkKeyView } from '#domain/network/schemas.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { NetworkKey, User } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow } from '#server/db/prepared.ts';

/** The caller of a request made with a network key: the source its records come from. */
export type NetworkKeyCaller = { kind: 'networkKey'; id: number; name: string };

export const NETWORK_KEY_PREFIX = 'sn_';
/** "sn_" and 8 characters of the key: shown in the list to tell keys apart. */
const VISIBLE_CHARS = NETWORK_KEY_PREFIX.length + 8;
const TOUCH_AFTER_MS = 60 * 1000;

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
/** A well-formed key: "sn_" and 43 base64url characters (32 random bytes). */
export const wellFormedNetworkKey = (key: string) => /^sn_[A-Za-z0-9_-]{43}$/.test(key);

type KeyRow = { id: number; name: string; last_used_at: Date | string | null };
const KEY_SQL = 'select id, name, last_used_at from network_key where hash = ? and revoked_at is null';

/** The live network key with this value (one read a request, so a revoked key is refused at once), or null. */
export async function lookUpNetworkKey(em: Em, key: string, now = new Date()): Promise<NetworkKeyCaller | null> {
  if (!wellFormedNetworkKey(key)) return null;
  const row = await readRow<KeyRow>(em, KEY_SQL, [hashOf(key)]);
  if (!row) return null;
  if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > TOUCH_AFTER_MS)
    await em.nativeUpdate(NetworkKey, { id: row.id }, { lastUsedAt: now });
  return { kind: 'networkKey', id: row.id, name: row.name };
}

type ListRow = {
  id: number;
  name: string;
  prefix: string;
  created_by: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
};
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Every network key, newest first, revoked ones too (a bounded list: at most 20 live, revoked ones are few). */
export async function listNetworkKeys(em: Em): Promise<NetworkKeyView[]> {
  const rows = await em.execute<ListRow[]>(
    `select k.id, k.name, k.prefix, u.name as created_by, k.created_at, k.last_used_at, k.revoked_at
       from network_key k left join app_user u on u.id = k.created_by_id order by k.id desc limit 200`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdBy: r.created_by,
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
    status: r.revoked_at ? 'revoked' : 'active',
  }));
}

type AdminActor = Actor & { userId: number };

/**
 * A new network key: answered once with its id and prefix, in the trail. Refused while NETWORK_KEYS_MAX_ACTIVE are
 * live; the keys' rows are locked first, so two super admins creating at once cannot both take the last place.
 */
export async function createNetworkKey(
  em: Em,
  actor: AdminActor,
  input: { name: string },
): Promise<{ id: number; key: string; prefix: string }> {
  const key = NETWORK_KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, VISIBLE_CHARS);
  return em.transactional(async (tx) => {
    await tx.execute('lock table network_key in share row exclusive mode');
    const active = await tx.count(NetworkKey, { revokedAt: null });
    if (active >= NETWORK_KEYS_MAX_ACTIVE) throw new Invalid(tNetwork.errors.tooMany(NETWORK_KEYS_MAX_ACTIVE));
    const row = tx.create(NetworkKey, {
      name: input.name,
      prefix,
      hash: hashOf(key),
      createdBy: tx.getReference(User, actor.userId),
    });
    await tx.flush();
    recordAudit(tx, actor, {
      action: 'networkKeyCreated',
      kind: 'security',
      companyId: null,
      targetType: 'NetworkKey',
      targetId: row.id,
      before: null,
      after: { name: input.name, prefix },
    });
    await tx.flush();
    return { id: row.id, key, prefix };
  });
}

/** Revokes a network key at once (its next request gets 401); a revoked key stays revoked. */
export async function revokeNetworkKey(em: Em, actor: AdminActor, id: number): Promise<NetworkKeyView> {
  await em.transactional(async (tx) => {
    const key = await tx.findOne(NetworkKey, { id });
    if (!key) throw new NotFound(tNetwork.errors.notFound);
    if (key.revokedAt) return;
    key.revokedAt = new Date();
    recordAudit(tx, actor, {
      action: 'networkKeyRevoked',
      kind: 'security',
      companyId: null,
      targetType: 'NetworkKey',
      targetId: key.id,
      before: { name: key.name, prefix: key.prefix },
      after: { name: key.name, revoked: true },
    });
    await tx.flush();
  });
  const view = (await listNetworkKeys(em)).find((k) => k.id === id);
  if (!view) throw new NotFound(tNetwork.errors.notFound);
  return view;
}
