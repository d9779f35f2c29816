// The operator's network feeding the portal (issue 39): POST /api/network/usage, a batch of usage records sent with
// a network integration key (decision 034), taken in by the one code path of the usage store (server/usage/ingest.ts,
// which the CLI's usage:import calls too). The key is the caller and its name the records' source.
import { USAGE_BATCH_MAX } from '#domain/network/schemas.ts';
import { z } from '#domain/zod.ts';
import { ingestUsage } from '#server/usage/ingest.ts';
import { toastFired } from '#server/rules/watch.ts';
import { idempotent, networkProcedure, router } from '#server/trpc/trpc.ts';

const example = {
  recordId: 'cdr-2026-11-28-000123',
  iccid: '89460800000000000014',
  start: '2026-11-28T14:30:00+01:00',
  end: '2026-11-28T14:45:00+01:00',
  bytesUp: 120394,
  bytesDown: 1830041,
  network: '240-01',
  country: 'SE',
  rat: 'LTE',
  imei: '356938035643809',
};

const usageBatchInput = z.object({
  records: z
    .array(
      // Each record is checked by the store, not here: a bad one is refused with its reason, the others taken.
      z.looseObject({}).meta({
        description:
          'A usage record: recordId (unique within the source), iccid, start and end (ISO 8601 with offset), bytesUp, bytesDown; optionally network (MCC-MNC), country (ISO 3166 alpha-2), rat, imei.',
        example,
      }),
    )
    .min(1)
    .max(USAGE_BATCH_MAX),
});

const usageBatchOutput = z.object({
  taken: z.number().int().meta({ description: 'New records stored and counted in the totals' }),
  duplicates: z.number().int().meta({ description: 'Records seen before (same source and recordId): nothing changed' }),
  unknownIccid: z
    .number()
    .int()
    .meta({ description: 'New records of an ICCID that is no active SIM: kept aside for the operator' }),
  refused: z
    .array(z.object({ index: z.number().int(), reason: z.string() }))
    .meta({ description: 'Records refused, by their index in the batch, with the reason (Swedish)' }),
});

export const networkRouter = router({
  usage: networkProcedure
    .meta({
      idempotent: true,
      openapi: {
        method: 'POST',
        path: '/network/usage',
        tags: ['network'],
        summary: "Send the network's usage records: a batch of up to 10,000, all or nothing",
        description:
          'For the operator\'s mediation system, with a network integration key (`Authorization: Bearer sn_...`, made by a super admin); no other caller. Body: `{ "records": [...] }`. A record seen before (same source, which is the key\'s name, and recordId) changes nothing, so a batch may be sent again; an Idempotency-Key replays the first answer. Usage belongs to the time it happened: a late record lands in its own day (Europe/Stockholm).',
      },
    })
    .use(idempotent)
    .input(usageBatchInput)
    .output(usageBatchOutput)
    .mutation(({ ctx, input }) =>
      ingestUsage(ctx.em, ctx.networkKey.name, input.records, {
        rawDays: ctx.services.config.usage.rawDays,
        // The companies' open pages show the new usage (after the commit: announce is held until then).
        onTaken: async (companies) => {
          for (const companyId of companies) await ctx.announce({ kind: 'usage', companyId });
        },
        // What the companies' rules did in the batch: a toast per rule to their signed-in users.
        onFired: (fired) =>
          toastFired(ctx.em.fork(), ctx.services.hub, fired).catch((err: unknown) =>
            ctx.services.log.warn({ err }, 'rule toasts not published'),
          ),
      }),
    ),
});
