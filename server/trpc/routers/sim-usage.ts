// One SIM's usage (issue 39): its month against its plan, its days, its latest sessions; GET /api/sim/{id}/usage.
import {
  SERIES_MAX_DAYS,
  simUsageOverviewInput,
  simUsageOverviewOutput,
  simUsageSeriesInput,
  simUsageSeriesOutput,
} from '#domain/usage/sim-schemas.ts';
import { simUsageOverview, simUsageSeries } from '#server/usage/sim.ts';
import { companyProcedure, router } from '#server/trpc/trpc.ts';

export const simUsageRouter = router({
  /** The SIM page's usage in one call (tRPC only). */
  overview: companyProcedure
    .input(simUsageOverviewInput)
    .output(simUsageOverviewOutput)
    .query(({ ctx, input }) =>
      simUsageOverview(ctx.em, ctx.companyId, input.id, { rawDays: ctx.services.config.usage.rawDays }),
    ),
  series: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sim/{id}/usage',
        tags: ['sims'],
        summary: "A SIM's usage per hour, day or month of a period",
        description: `Every hour, day or month of the period from \`from\` to \`to\`, oldest first, with 0 where the SIM used nothing; amounts in bytes, times in ISO 8601 UTC. Days and months are Swedish calendar days and months (Europe/Stockholm): a record belongs to the day of its start there. Hours are read from the raw records (kept 90 days; each holds the records that started in it), days and months from the totals. \`from\` and \`to\` are days (YYYY-MM-DD, both included) or ISO 8601 times with an offset (\`to\` excluded); a time inside a day takes the whole day for day and month. At most ${SERIES_MAX_DAYS.hour} days of hours, ${SERIES_MAX_DAYS.day} of days and ${SERIES_MAX_DAYS.month} (36 months) of months: a longer period, a \`from\` or \`to\` that cannot be read, or hours older than the raw records are a 400 naming the field. Defaults: the last 24 whole hours (to the end of the current one), the last 30 days, the last 12 months (today's included).`,
      },
    })
    .input(simUsageSeriesInput)
    .output(simUsageSeriesOutput)
    .query(({ ctx, input }) =>
      simUsageSeries(ctx.em, ctx.companyId, input.id, input, { rawDays: ctx.services.config.usage.rawDays }),
    ),
});
