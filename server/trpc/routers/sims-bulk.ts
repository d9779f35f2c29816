// The bulk SIM procedures, part of the sim router (routers/sims.ts): a whole list activated or deactivated with
// one outcome per row; a refused row is an outcome, not an error.
import { z } from '#domain/zod.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import {
  bulkActivateInput,
  bulkActivateSummaryInput,
  bulkActivateOutput,
  bulkDeactivateInput,
  bulkDeactivateOutput,
} from '#domain/sims/schemas.ts';
import { activateBulk, countActivatedBy, deactivateBulk } from '#server/sims/bulk.ts';
import { actorOf } from '#server/sims/changes.ts';
import { auditBulk } from '#server/audit/activity.ts';
import { companyWriteProcedure, idempotent } from '#server/trpc/trpc.ts';
import { tPause } from '#domain/texts/pause.ts';
import type { Context } from '#server/trpc/context.ts';

/** A bulk run's one trail row and one toast: how many of how many rows were done. */
export async function reportBulk(
  ctx: Parameters<typeof actorOf>[0] & Pick<Context, 'em' | 'notify'>,
  kind: 'bulkActivate' | 'bulkDeactivate' | 'bulkPause' | 'bulkResume',
  done: number,
  total: number,
): Promise<void> {
  await auditBulk(ctx.em, actorOf(ctx), kind, done, total);
  const title = {
    bulkActivate: tBulk.activatedTitle,
    bulkDeactivate: tBulk.deactivatedTitle,
    bulkPause: tPause.toastPausedMany,
    bulkResume: tPause.toastResumedMany,
  }[kind](done);
  await ctx.notify(done > 0 ? 'info' : 'error', title, tBulk.summary(done, total - done));
}

/** The procedures, spread into the sim router: their paths are sim.bulkActivate and so on. */
export const simsBulkProcedures = {
  bulkActivate: companyWriteProcedure
    .meta({
      idempotent: true,
      weighs: ['iccids', 'rows'],
      openapi: {
        method: 'POST',
        path: '/sim/bulk',
        tags: ['sims'],
        summary:
          'Activate a list of SIMs (1 to 10,000: iccids, or rows with their own marks) on one plan; dryRun: only the preview',
        description:
          'One answer for the whole list, each row with its outcome, in the order sent. 10,000 ICCIDs take about a second on PostgreSQL. The body may be up to 6 MB (10,000 rows with their own 200-character mark and comment); a list of more than 10,000 is refused with 400 and { error, issues }: split it.',
      },
    })
    .use(idempotent)
    .input(bulkActivateInput)
    .output(bulkActivateOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await activateBulk(ctx.em, actorOf(ctx), input);
      if (!input.dryRun) await reportBulk(ctx, 'bulkActivate', answer.counts.activated, answer.results.length);
      return answer;
    }),
  /**
   * The same as bulkActivate without the toast, tRPC only (no REST path): the browser sends a long list in
   * chunks for its progress bar, then asks bulkActivateSummary for the run's one toast.
   */
  bulkActivateChunk: companyWriteProcedure
    .input(bulkActivateInput)
    .output(bulkActivateOutput)
    .mutation(({ ctx, input }) => activateBulk(ctx.em, actorOf(ctx), input)),
  /** The one toast of a chunked run: the activated count is read from the database, never taken on trust. */
  bulkActivateSummary: companyWriteProcedure
    .input(bulkActivateSummaryInput)
    .output(z.object({ activated: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const done = Math.min(await countActivatedBy(ctx.em, actorOf(ctx), input.simIds), input.total);
      // A chunked run is one bulk run in the company's trail too, as bulkActivate is.
      await reportBulk(ctx, 'bulkActivate', done, input.total);
      return { activated: done };
    }),
  bulkDeactivate: companyWriteProcedure
    .meta({
      idempotent: true,
      weighs: ['ids'],
      openapi: {
        method: 'POST',
        path: '/sim/bulk/deactivate',
        tags: ['sims'],
        summary: 'Deactivate a list of SIMs (1 to 10,000 ids)',
        description:
          'One answer for the whole list, each id with its outcome. A list of more than 10,000 ids is refused with 400 and { error, issues }: split it.',
      },
    })
    .use(idempotent)
    .input(bulkDeactivateInput)
    .output(bulkDeactivateOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await deactivateBulk(ctx.em, actorOf(ctx), input);
      await reportBulk(ctx, 'bulkDeactivate', answer.counts.deactivated, answer.results.length);
      return answer;
    }),
};
