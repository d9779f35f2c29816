// Pausing and resuming SIMs (issue 40, docs/decisions/037): one SIM or a list, spread into the sim router.
import { rowId, z } from '#domain/zod.ts';
import { bulkDeactivateInput } from '#domain/sims/schemas.ts';
import { bulkPauseOutput, bulkResumeOutput, pauseOneOutput } from '#domain/sims/pause.ts';
import { tPause } from '#domain/texts/pause.ts';
import { actorOf } from '#server/sims/changes.ts';
import { pauseOne, pauseSims, resumeSims } from '#server/sims/pause.ts';
import { companyWriteProcedure, idempotent } from '#server/trpc/trpc.ts';
import { reportBulk } from './sims-bulk.ts';

export const simsPauseProcedures = {
  pause: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/sim/pause/{id}',
        tags: ['sims'],
        summary: 'Pause a SIM: it keeps its number and plan but carries no data',
        description:
          'changed: false when it was already paused (nothing done, no webhook). Its usage records are still taken in. Resume it with POST /api/sim/resume/{id}.',
      },
    })
    .use(idempotent)
    .input(z.object({ id: rowId() }))
    .output(pauseOneOutput)
    .mutation(async ({ ctx, input }) => {
      const { changed, iccid } = await pauseOne(ctx.em, actorOf(ctx), input.id, 'pause');
      if (changed) await ctx.notify('info', tPause.toastPaused, `ICCID ${iccid}`);
      return { success: true, changed };
    }),
  resume: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/sim/resume/{id}',
        tags: ['sims'],
        summary: 'Resume a paused SIM at once',
        description: 'changed: false when it was not paused (nothing done, no webhook).',
      },
    })
    .use(idempotent)
    .input(z.object({ id: rowId() }))
    .output(pauseOneOutput)
    .mutation(async ({ ctx, input }) => {
      const { changed, iccid } = await pauseOne(ctx.em, actorOf(ctx), input.id, 'resume');
      if (changed) await ctx.notify('info', tPause.toastResumed, `ICCID ${iccid}`);
      return { success: true, changed };
    }),
  bulkPause: companyWriteProcedure
    .meta({
      idempotent: true,
      weighs: ['ids'],
      openapi: {
        method: 'POST',
        path: '/sim/bulk/pause',
        tags: ['sims'],
        summary: 'Pause a list of SIMs (1 to 10,000 ids)',
        description:
          'One answer for the whole list, each id with its outcome: paused, alreadyPaused (nothing done) or notFound. One statement for the whole list; a webhook sim.paused per SIM paused.',
      },
    })
    .use(idempotent)
    .input(bulkDeactivateInput)
    .output(bulkPauseOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await pauseSims(ctx.em, actorOf(ctx), input.ids);
      await reportBulk(ctx, 'bulkPause', answer.counts.paused, answer.results.length);
      return answer;
    }),
  bulkResume: companyWriteProcedure
    .meta({
      idempotent: true,
      weighs: ['ids'],
      openapi: {
        method: 'POST',
        path: '/sim/bulk/resume',
        tags: ['sims'],
        summary: 'Resume a list of paused SIMs (1 to 10,000 ids)',
        description:
          'One answer for the whole list, each id with its outcome: resumed, notPaused (nothing done) or notFound; a webhook sim.resumed per SIM resumed.',
      },
    })
    .use(idempotent)
    .input(bulkDeactivateInput)
    .output(bulkResumeOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await resumeSims(ctx.em, actorOf(ctx), input.ids);
      await reportBulk(ctx, 'bulkResume', answer.counts.resumed, answer.results.length);
      return answer;
    }),
};
