// The company's webhooks, for its owners (and support acting as the company); REST paths under
// /api/company/webhooks. API keys never reach these.
import { tWebhooks } from '#domain/texts/webhooks.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  queueTest,
  rotateSecret,
  updateEndpoint,
  type WebhookActor,
  type WebhookOpts,
} from '#server/webhooks/endpoints.ts';
import {
  deliveryOutput,
  endpointOutput,
  webhookCreateInput,
  webhookIdInput,
  webhookUpdateInput,
} from '#domain/webhooks/schemas.ts';
import type { Services } from '#server/services.ts';
import { z } from '#domain/zod.ts';
import { ownerChangeProcedure, ownerProcedure, router, idempotent } from '#server/trpc/trpc.ts';
import { success } from './auth.ts';

const tags = ['company'];
const actor = (ctx: {
  companyId: number;
  session: { userId: number; actingCompanyId: number | null };
}): WebhookActor => ({
  userId: ctx.session.userId,
  actingCompanyId: ctx.session.actingCompanyId,
  companyId: ctx.companyId,
});
const opts = (services: Services): WebhookOpts => ({
  policy: { allowPrivateTargets: services.config.webhooks.allowPrivateTargets },
  retryForMs: services.config.webhooks.retryForMs,
});

export const webhooksRouter = router({
  list: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/webhooks',
        tags,
        summary: "The company's webhook endpoints with their last deliveries (never the secret)",
      },
    })
    .input(z.object({}))
    .output(z.array(endpointOutput))
    .query(({ ctx }) => listEndpoints(ctx.em, ctx.companyId, ctx.services.config.webhooks.retryForMs)),

  create: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/webhooks',
        tags,
        summary:
          'Register an endpoint (https; events sim.activated, sim.updated, sim.deactivated, sim.paused, sim.resumed, bulk.completed); the signing secret is answered only this once',
      },
    })
    .use(idempotent)
    .input(webhookCreateInput)
    .output(z.object({ id: z.number(), secret: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const r = await createEndpoint(ctx.em, actor(ctx), input, opts(ctx.services));
      await ctx.notify('info', tWebhooks.created);
      return r;
    }),

  update: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: { method: 'PUT', path: '/company/webhooks', tags, summary: "Change an endpoint's URL, events, on/off" },
    })
    .use(idempotent)
    .input(webhookUpdateInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await updateEndpoint(ctx.em, actor(ctx), input, opts(ctx.services));
      await ctx.notify('info', tWebhooks.saved);
      return { success: true };
    }),

  delete: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/webhooks/delete/{id}',
        tags,
        summary: 'Delete an endpoint with its deliveries',
      },
    })
    .use(idempotent)
    .input(webhookIdInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await deleteEndpoint(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tWebhooks.deleted);
      return { success: true };
    }),

  test: ownerProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/webhooks/test/{id}',
        tags,
        summary: 'Queue a webhook.test event for this endpoint',
      },
    })
    .use(idempotent)
    .input(webhookIdInput)
    .output(z.object({ eventId: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const r = await queueTest(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tWebhooks.testQueued);
      return r;
    }),

  rotate: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/webhooks/rotate/{id}',
        tags,
        summary:
          'A new signing secret, answered only this once; the old one signs beside it for 24 hours (previousSecretValidUntil)',
      },
    })
    .use(idempotent)
    .input(webhookIdInput)
    .output(z.object({ secret: z.string(), previousSecretValidUntil: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const r = await rotateSecret(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tWebhooks.rotated);
      return r;
    }),

  deliveries: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/webhooks/{id}/deliveries',
        tags,
        summary: "An endpoint's last 50 deliveries, newest first",
      },
    })
    .input(webhookIdInput)
    .output(z.array(deliveryOutput))
    .query(({ ctx, input }) => listDeliveries(ctx.em, ctx.companyId, input.id)),
});
