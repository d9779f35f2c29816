// The network's integration keys and the usage records kept aside, for super admins (decision 034, issue 39).
// REST: GET /api/admin/networkKeys, POST /api/admin/networkKeys (the key answered once),
// POST /api/admin/networkKeys/revoke/{id}, GET /api/admin/usageAside.
import { usageAsidePage, usageAsideQuery } from '#domain/network/aside-schemas.ts';
import {
  networkKeyCreated,
  networkKeyCreateInput,
  networkKeyIdInput,
  networkKeyName,
  networkKeyView,
} from '#domain/network/schemas.ts';
import { tNetwork } from '#domain/texts/network.ts';
import { z } from '#domain/zod.ts';
import { createNetworkKey, listNetworkKeys, revokeNetworkKey } from '#server/network/keys.ts';
import { listUsageAside } from '#server/usage/aside.ts';
import { idempotent, router, superAdminChangeProcedure, superAdminProcedure } from '#server/trpc/trpc.ts';

const tags = ['admin'];
// The OpenAPI document's examples: a source name and a network key as they are (not a person's name, not "sp_").
const PREFIX_EXAMPLE = 'sn_4hT8qLm2';
const createInput = networkKeyCreateInput.extend({ name: networkKeyName.meta({ example: 'mediation-1' }) });
const keyView = networkKeyView.extend({
  name: z.string().meta({ example: 'mediation-1' }),
  prefix: z.string().meta({ example: PREFIX_EXAMPLE }),
});
const created = networkKeyCreated.extend({
  key: z.string().meta({ example: `${PREFIX_EXAMPLE}Vx3Kp9ZrW1cQy7NdB5fJ0sHuE2gTa6LmOq4` }),
  prefix: z.string().meta({ example: PREFIX_EXAMPLE }),
});
const actor = (ctx: { session: { userId: number; actingCompanyId: number | null } }) => ({
  userId: ctx.session.userId,
  actingCompanyId: ctx.session.actingCompanyId,
});

export const networkKeysRouter = router({
  list: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/networkKeys',
        tags,
        summary: "The network's integration keys",
        description:
          'Every network key, newest first, revoked ones too (name: the source of its records, prefix, created by, created, last used, status).',
      },
    })
    .input(z.void())
    .output(z.array(keyView))
    .query(({ ctx }) => listNetworkKeys(ctx.em)),

  create: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/networkKeys',
        tags,
        summary: 'Create a network key',
        description:
          "A key for the operator's mediation system to send usage with (POST /api/network/usage), { name }: the source of its records. The key is answered only this once; at most 20 live keys.",
      },
    })
    .use(idempotent)
    .input(createInput)
    .output(created)
    .mutation(async ({ ctx, input }) => {
      const made = await createNetworkKey(ctx.em, actor(ctx), input);
      await ctx.notify('info', tNetwork.created(input.name));
      return made;
    }),

  revoke: superAdminChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/admin/networkKeys/revoke/{id}',
        tags,
        summary: 'Revoke a network key',
        description: 'The key stops working at once: its next request gets 401. A revoked key stays revoked.',
      },
    })
    .use(idempotent)
    .input(networkKeyIdInput)
    .output(keyView)
    .mutation(async ({ ctx, input }) => {
      const key = await revokeNetworkKey(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tNetwork.revoked(key.name));
      return key;
    }),

  aside: superAdminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/usageAside',
        tags,
        summary: 'Usage records kept aside',
        description:
          "Usage records of an ICCID that is no active SIM's (unknown or deactivated), kept as they came, newest received first; before (the previous page's nextBefore) and limit (default and at most 50) page.",
      },
    })
    .input(usageAsideQuery)
    .output(usageAsidePage)
    .query(({ ctx, input }) => listUsageAside(ctx.em, input)),
});
