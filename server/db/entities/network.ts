// The network's integration keys (docs/decisions/034): made by a super admin for the operator's mediation system,
// which sends usage records with one (POST /api/network/usage). A key of the portal's own, not a company's: it can
// do nothing else. Like a company's API key, only its SHA-256 and a short visible prefix are stored; its name is
// the records' source (a new key with the same name, to rotate one, continues the same source).
import { defineEntity, p } from '@mikro-orm/core';
import { now, User } from './core.ts';

export const NetworkKeySchema = defineEntity({
  name: 'NetworkKey',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    prefix: p.string().length(20),
    hash: p.string().length(64).unique(),
    createdBy: () => p.manyToOne(User).nullable(),
    createdAt: p.datetime().onCreate(now),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export class NetworkKey extends NetworkKeySchema.class {}
NetworkKeySchema.setClass(NetworkKey);
