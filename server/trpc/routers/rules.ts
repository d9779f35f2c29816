// The company's rules (issue 40, docs/decisions/038), for its owners (and support acting as the company): a rule
// can pause any SIM of the company and mail any of its users, so it is an owner's change as a webhook is (step-up
// for every change). REST paths under /api/company/rules. API keys never reach these.
import { tRules } from '#domain/texts/rules.ts';
import {
  firingsInput,
  firingsPageOutput,
  ruleCreateInput,
  ruleIdInput,
  ruleOutput,
  ruleUpdateInput,
} from '#domain/rules/schemas.ts';
import { createRule, deleteRule, listRules, updateRule, type RuleActor } from '#server/rules/rules.ts';
import { listFirings } from '#server/rules/firings.ts';
import { z } from '#domain/zod.ts';
import { ownerChangeProcedure, ownerProcedure, router, idempotent } from '#server/trpc/trpc.ts';
import { success } from './auth.ts';

const tags = ['company'];
const actor = (ctx: { companyId: number; session: { userId: number; actingCompanyId: number | null } }): RuleActor => ({
  userId: ctx.session.userId,
  actingCompanyId: ctx.session.actingCompanyId,
  companyId: ctx.companyId,
});

export const rulesRouter = router({
  list: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/rules',
        tags,
        summary: "The company's rules (which SIMs, when, what), in id order",
      },
    })
    .input(z.object({}))
    .output(z.array(ruleOutput))
    .query(({ ctx }) => listRules(ctx.em, ctx.companyId)),

  create: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/rules',
        tags,
        summary:
          'Make a rule: target all, tag or plan; condition month_share (threshold in percent of the plan), month_bytes or day_bytes (bytes), silent (minutes); at least one of notifyEmail (with recipients), notifyWebhook, notifyToast, pause',
      },
    })
    .use(idempotent)
    .input(ruleCreateInput)
    .output(ruleOutput)
    .mutation(async ({ ctx, input }) => {
      const rule = await createRule(ctx.em, actor(ctx), input);
      await ctx.notify('info', tRules.created);
      return rule;
    }),

  update: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: { method: 'PUT', path: '/company/rules', tags, summary: 'Change a rule (every field, on/off)' },
    })
    .use(idempotent)
    .input(ruleUpdateInput)
    .output(ruleOutput)
    .mutation(async ({ ctx, input }) => {
      const rule = await updateRule(ctx.em, actor(ctx), input);
      await ctx.notify('info', tRules.saved);
      return rule;
    }),

  delete: ownerChangeProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/company/rules/delete/{id}',
        tags,
        summary: 'Delete a rule with its firings (the SIMs it paused stay paused)',
      },
    })
    .use(idempotent)
    .input(ruleIdInput)
    .output(success)
    .mutation(async ({ ctx, input }) => {
      await deleteRule(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', tRules.deleted);
      return { success: true };
    }),

  firings: ownerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/company/rules/firings',
        tags,
        summary:
          "What the company's rules did (or one rule's: ruleId), newest first, 50 a page; `next` is the `before` of the next page",
      },
    })
    .input(firingsInput)
    .output(firingsPageOutput)
    .query(({ ctx, input }) => listFirings(ctx.em, ctx.companyId, input)),
});
