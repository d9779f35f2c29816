// The company's tags as a whole (issue 40; decision 036): the list of them, and a rename or delete on every SIM that
// has one. Adding and removing tags on SIMs is sim.tags (routers/sims.ts).
import { z } from '#domain/zod.ts';
import { tagCompanyChangeOutput, tagDeleteInput, tagRenameInput } from '#domain/sims/tags.ts';
import { tTags } from '#domain/texts/tags.ts';
import { companyTags, deleteTag, renameTag } from '#server/sims/tags.ts';
import { companyProcedure, companyWriteProcedure, idempotent, router } from '#server/trpc/trpc.ts';

export const tagsRouter = router({
  list: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/tags',
        tags: ['sims'],
        summary: "The company's tags, in text order",
        description: 'Every tag one of its SIMs has, at most 1,000, in text order (nothing counted).',
      },
    })
    .input(z.void())
    .output(z.object({ tags: z.array(z.string()) }))
    .query(async ({ ctx }) => ({ tags: await companyTags(ctx.em, ctx.companyId) })),
  rename: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/tags/rename',
        tags: ['sims'],
        summary: 'Rename a tag on every SIM that has it',
        description:
          "from becomes to on every SIM of the company that has it (a SIM that has both keeps one), and its usage by day (GET /api/usage?groupBy=tag) goes with it, added to to's. changed: the SIMs whose tags changed.",
      },
    })
    .use(idempotent)
    .input(tagRenameInput)
    .output(tagCompanyChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const changed = await renameTag(ctx.em, ctx.companyId, input.from, input.to);
      if (changed > 0) await ctx.notify('info', tTags.renamedTitle(input.from, input.to), tTags.onSims(changed));
      return { success: true, changed };
    }),
  delete: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/tags/delete',
        tags: ['sims'],
        summary: 'Take a tag off every SIM that has it',
        description: 'Its usage by day (GET /api/usage?groupBy=tag) goes with it. changed: the SIMs that had the tag.',
      },
    })
    .use(idempotent)
    .input(tagDeleteInput)
    .output(tagCompanyChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const changed = await deleteTag(ctx.em, ctx.companyId, input.tag);
      if (changed > 0) await ctx.notify('info', tTags.deletedTitle(input.tag), tTags.onSims(changed));
      return { success: true, changed };
    }),
});
