// An API key's bounds and scope names, apart from their zod schemas (schemas.ts) and the entities, importing
// nothing: the API keys page imports them from here, so neither zod nor MikroORM reaches its browser JS.

/** The longest name of a key. */
export const API_KEY_NAME_MAX = 100;

/** read: every GET path of the company; write: read plus activate, edit, deactivate and bulk. */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
