// One SIM's usage (issue 39): the SIM page's overview (this month against the plan, the last sighting, its days,
// its latest records) and GET /api/sim/{id}/usage (a series per hour, day or month of a period). Pure (zod only):
// the procedures, the OpenAPI document and the tests share it.
import { rowId, z } from '#domain/zod.ts';

export const USAGE_GRANULARITIES = ['hour', 'day', 'month'] as const;
export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

/**
 * The longest period each granularity answers, in Swedish days: a week of hours (168 rows, read from the raw
 * records), a year of days, 36 months (the totals' retention).
 */
export const SERIES_MAX_DAYS: Record<UsageGranularity, number> = { hour: 7, day: 366, month: 1096 };

/** The latest raw records the SIM page shows. */
export const SIM_SESSIONS = 20;
/** The days the SIM page's chart can show (the last 30 or 90, today included). */
export const CHART_DAYS = [30, 90] as const;

const periodField = (which: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .optional()
    .meta({
      description:
        which === 'from'
          ? 'The first Swedish calendar day (YYYY-MM-DD, Europe/Stockholm, included) or an ISO 8601 time with offset (included). Default: the period ending at `to` of 24 hours (hour), 30 days (day) or 12 months (month).'
          : 'The last Swedish calendar day (YYYY-MM-DD, included) or an ISO 8601 time with offset (excluded). Default: the end of the current hour (hour), today (day, month).',
      example: which === 'from' ? '2026-11-01' : '2026-11-28',
    });

export const simUsageSeriesInput = z.object({
  id: rowId(),
  granularity: z
    .enum(USAGE_GRANULARITIES)
    .default('day')
    .meta({ description: 'hour (from the raw records, kept 90 days), day or month (from the totals).' }),
  from: periodField('from'),
  to: periodField('to'),
});

const bytesOf = {
  bytesUp: z.number().meta({ description: 'Bytes sent by the SIM (uplink).', example: 1_200_000 }),
  bytesDown: z.number().meta({ description: 'Bytes received by the SIM (downlink).', example: 48_000_000 }),
  bytes: z.number().meta({ description: 'bytesUp + bytesDown.', example: 49_200_000 }),
};

export const simUsageSeriesOutput = z.object({
  simId: z.number(),
  granularity: z.enum(USAGE_GRANULARITIES),
  from: z
    .string()
    .meta({ description: 'The first instant of the period, ISO 8601 UTC.', example: '2026-10-31T23:00:00.000Z' }),
  to: z
    .string()
    .meta({ description: 'The first instant after the period, ISO 8601 UTC.', example: '2026-11-28T23:00:00.000Z' }),
  items: z
    .array(
      z.object({
        period: z.string().meta({
          description: 'The hour (its start, ISO 8601 UTC), the Swedish calendar day (YYYY-MM-DD) or month (YYYY-MM).',
          example: '2026-11-28',
        }),
        start: z
          .string()
          .meta({ description: 'Its first instant, ISO 8601 UTC.', example: '2026-11-27T23:00:00.000Z' }),
        end: z
          .string()
          .meta({ description: 'The first instant after it, ISO 8601 UTC.', example: '2026-11-28T23:00:00.000Z' }),
        ...bytesOf,
      }),
    )
    .meta({ description: 'Every hour, day or month of the period, oldest first; 0 where the SIM used nothing.' }),
  asOf: z.string().nullable().meta({
    description:
      "How fresh the company's usage is: the end of the latest record taken for any of its SIMs, ISO 8601 UTC (null: none yet).",
    example: '2026-11-28T13:45:00.000Z',
  }),
});
export type SimUsageSeries = z.infer<typeof simUsageSeriesOutput>;

export const simUsageOverviewInput = z.object({ id: rowId() });

export const simUsageOverviewOutput = z.object({
  simId: z.number(),
  /** The Swedish month (YYYY-MM) of `month*`. */
  month: z.string(),
  monthBytesUp: z.number(),
  monthBytesDown: z.number(),
  monthBytes: z.number(),
  /** The plan's data amount in MB (decimal, as sold). */
  dataLimitMb: z.number().nullable(),
  lastSeen: z.object({ at: z.string(), network: z.string().nullable(), country: z.string().nullable() }).nullable(),
  /** The last 90 Swedish days, oldest first, today last, 0 where nothing was used. */
  days: z.array(z.object({ day: z.string(), bytes: z.number() })),
  /** The latest raw records, newest first (at most SIM_SESSIONS). */
  sessions: z.array(
    z.object({
      start: z.string(),
      end: z.string(),
      bytesUp: z.number(),
      bytesDown: z.number(),
      network: z.string().nullable(),
      country: z.string().nullable(),
      rat: z.string().nullable(),
    }),
  ),
  asOf: z.string().nullable(),
});
export type SimUsageOverview = z.infer<typeof simUsageOverviewOutput>;
