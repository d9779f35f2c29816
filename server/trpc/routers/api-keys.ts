// A company's API keys, for its owners (and support acting as the company); never for a key.
// REST: GET /api/company/apiKeys, POST /api/company/apiKeys (the key answered once), POST /api/company/apiKeys/revoke/{id}.
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey } from '#server/api-keys/keys.ts';
import { apiKeyCreatedOutput, apiKeyCreateInput, apiKeyIdInput, apiKeyOutput } from '#domain/api-keys/schemas.ts';
import { z } from '#domain/zod.ts';
import { ownerChangeProcedure, ownerProcedure, router, idempotent } from '#server/trpc/trpc.ts';

const tags = ['company'];
const actor = (ctx: { companyId: number; session: { userId: number; actingCompanyId: number | null } }) => ({
  userId: ctx.session.userId,
  actingCompanyId: ctx.session.actingCompanyId,
  companyId: ctx.companyId,
});

export const apiKeysRouter = router({
  list: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/apiKeys',
        tags,
        summary: "The company's API keys, newest first (name, prefix, scope, created by, last used, expiry, status)",
      },
    })
    .input(z.void())
    .output(z.array(apiKeyOutput))
    .query(({ ctx }) => listApiKeys(ctx.em, ctx.companyId)),

  get: ownerProcedure
    .input(apiKeyIdInput)
    .output(apiKeyOutput)
    .query(({ ctx, input }) => getApiKey(ctx.em, ctx.companyId, input.id)),

  create: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/apiKeys',
        tags,
        summary:
          'Create an API key { name, scope: read | write, expiresAt?: YYYY-MM-DD or ISO time }; the key is answered only this once',
      },
    })
    .use(idempotent)
    .input(apiKeyCreateInput)
    .output(apiKeyCreatedOutput)
    .mutation(async ({ ctx, input }) => {
      const created = await createApiKey(ctx.em, actor(ctx), input, ctx.services.config.apiKeysMaxActive);
      await ctx.notify('info', tApiKeys.createdToast(input.name));
      return created;
    }),

  revoke: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/apiKeys/revoke/{id}',
        tags,
        summary: 'Revoke an API key: its next request gets 401',
      },
    })
    .use(idempotent)
    .input(apiKeyIdInput)
    .output(apiKeyOutput)
    .mutation(async ({ ctx, input }) => {
      const key = await revokeApiKey(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tApiKeys.revoked(key.name));
      return key;
    }),
});
