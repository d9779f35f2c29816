// A company's API keys: created by an owner (the key is answered once; only its SHA-256 and a short
// prefix are stored, like sessions and login links), at most API_KEYS_MAX_ACTIVE live at once, listed, revoked at
// once; and the lookup of a bearer key on every REST request, which also asks the key's and its company's budgets
// (server/http/rate-limits.ts) and notes its last use.
import { createHash, randomBytes } from 'node:crypto';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { recordAudit, type Actor } from '#server/audit/trail.ts';
import { ApiKey, Company, User, type ApiKeyScope } from '#server/db/entities.ts';
import type { Em } from '#server/db/orm.ts';
import { readRow } from '#server/db/prepared.ts';
import { Invalid, NotFound } from '#domain/errors.ts';
import type { ApiKeyView } from '#domain/api-keys/schemas.ts';

/** The caller of a request made with an API key: it acts for its company, within its scope. */
export type ApiKeyCaller = { kind: 'apiKey'; id: number; companyId: number; scope: ApiKeyScope; name: string };

export const KEY_PREFIX = 'sp_';
/** "sp_" and 8 characters of the key: shown in lists to tell keys apart. */
const VISIBLE_CHARS = KEY_PREFIX.length + 8;
// Writing last_used_at on every request costs a write; once a minute tells an owner enough.
const TOUCH_AFTER_MS = 60 * 1000;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A well-formed key: "sp_" and 43 base64url characters (32 random bytes). */
export const wellFormedKey = (key: string) => /^sp_[A-Za-z0-9_-]{43}$/.test(key);

type KeyRow = { id: number; company_id: number; scope: ApiKeyScope; name: string; last_used_at: Date | string | null };

export type KeyLookup = { kind: 'ok'; caller: ApiKeyCaller } | { kind: 'unknown' } | { kind: 'limited' };

const KEY_SQL = `select id, company_id, scope, name, last_used_at from api_key
  where hash = ? and revoked_at is null and (expires_at is null or expires_at > ?)`;

/**
 * The live key (not revoked, not expired) with this value: one read per request, as a session is (so a revoked
 * key is refused at once, on every instance); `admit` then counts its hit against the key's and its company's
 * budgets (false: over one); its last use noted at most once a minute, and not for a refused hit.
 */
export async function lookUpApiKey(
  em: Em,
  key: string,
  admit: (found: { id: number; companyId: number }) => Promise<boolean>,
  now = new Date(),
): Promise<KeyLookup> {
  if (!wellFormedKey(key)) return { kind: 'unknown' };
  const row = await readRow<KeyRow>(em, KEY_SQL, [hashApiKey(key), now]);
  if (!row) return { kind: 'unknown' };
  if (!(await admit({ id: row.id, companyId: row.company_id }))) return { kind: 'limited' };
  if (row.last_used_at === null || now.getTime() - new Date(row.last_used_at).getTime() > TOUCH_AFTER_MS)
    await em.nativeUpdate(ApiKey, { id: row.id }, { lastUsedAt: now });
  return {
    kind: 'ok',
    caller: { kind: 'apiKey', id: row.id, companyId: row.company_id, scope: row.scope, name: row.name },
  };
}

type ListRow = {
  id: number;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  created_by: string | null;
  creator_removed: boolean | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
};
function iso(v: Date | string): string;
function iso(v: Date | string | null): string | null;
function iso(v: Date | string | null) {
  return v === null ? null : new Date(v).toISOString();
}

/** The company's keys, newest first, revoked and expired ones too (with their status). */
export async function listApiKeys(em: Em, companyId: number, now = new Date()): Promise<ApiKeyView[]> {
  const rows = await em.execute<ListRow[]>(
    `select k.id, k.name, k.scope, k.prefix, u.name as created_by, u.removed_at is not null as creator_removed,
      k.created_at, k.last_used_at, k.expires_at, k.revoked_at from api_key k left join app_user u on u.id = k.created_by_id
    where k.company_id = ? order by k.id desc limit 1000`,
    [companyId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    scope: r.scope,
    prefix: r.prefix,
    // A key belongs to the company, not to its creator (docs/decisions/018): a removed creator is named as such, so
    // an owner sees which keys to look over.
    createdBy: r.created_by === null ? null : r.creator_removed ? tApiKeys.removedCreator(r.created_by) : r.created_by,
    createdAt: iso(r.created_at),
    lastUsedAt: iso(r.last_used_at),
    expiresAt: iso(r.expires_at),
    revokedAt: iso(r.revoked_at),
    status: r.revoked_at
      ? 'revoked'
      : r.expires_at && new Date(r.expires_at).getTime() <= now.getTime()
        ? 'expired'
        : 'active',
  }));
}

export async function getApiKey(em: Em, companyId: number, id: number): Promise<ApiKeyView> {
  const key = (await listApiKeys(em, companyId)).find((k) => k.id === id);
  if (!key) throw new NotFound(tApiKeys.errors.notFound);
  return key;
}

type OwnerActor = Actor & { userId: number; companyId: number };

/** The default of API_KEYS_MAX_ACTIVE (server/config.ts): live keys a company may hold at once. */
export const API_KEYS_MAX_ACTIVE = 20;

/**
 * A new key of the company: answered once with its id and prefix, with its row in the company's trail. Refused
 * (Invalid, about the whole form) while the company holds `maxActive` live keys: each key has a budget of its own,
 * and a company must not multiply them. The company's row is locked first, so two owners creating at once cannot
 * both take the last place.
 */
export async function createApiKey(
  em: Em,
  actor: OwnerActor,
  input: { name: string; scope: ApiKeyScope; expiresAt?: Date },
  maxActive = API_KEYS_MAX_ACTIVE,
  now = new Date(),
): Promise<{ id: number; key: string; prefix: string }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, VISIBLE_CHARS);
  return em.transactional(async (tx) => {
    await tx.execute('select id from company where id = ? for update', [actor.companyId]);
    const active = await tx.count(ApiKey, {
      company: actor.companyId,
      revokedAt: null,
      $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
    });
    if (active >= maxActive) throw new Invalid(tApiKeys.errors.tooMany(maxActive));
    const row = tx.create(ApiKey, {
      company: tx.getReference(Company, actor.companyId),
      name: input.name,
      scope: input.scope,
      prefix,
      hash: hashApiKey(key),
      createdBy: tx.getReference(User, actor.userId),
      expiresAt: input.expiresAt ?? null,
    });
    await tx.flush();
    recordAudit(tx, actor, {
      action: 'createApiKey',
      kind: 'apiKey',
      companyId: actor.companyId,
      targetType: 'ApiKey',
      targetId: row.id,
      before: null,
      after: { name: input.name, scope: input.scope, prefix, expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    await tx.flush();
    return { id: row.id, key, prefix };
  });
}

/** Revokes the company's key at once (the next request with it gets 401); a revoked key stays revoked. */
export async function revokeApiKey(em: Em, actor: OwnerActor, id: number): Promise<ApiKeyView> {
  await em.transactional(async (tx) => {
    const key = await tx.findOne(ApiKey, { id, company: actor.companyId });
    if (!key) throw new NotFound(tApiKeys.errors.notFound);
    if (key.revokedAt) return;
    key.revokedAt = new Date();
    recordAudit(tx, actor, {
      action: 'revokeApiKey',
      kind: 'apiKey',
      companyId: actor.companyId,
      targetType: 'ApiKey',
      targetId: key.id,
      before: { name: key.name, scope: key.scope, prefix: key.prefix },
      after: { name: key.name, revoked: true },
    });
    await tx.flush();
  });
  return getApiKey(em, actor.companyId, id);
}
