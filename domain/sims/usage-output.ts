// A SIM's usage as the API answers it on each SIM (GET /api/sim/all, GET /api/sim/{id}; issue 39), documented
// field by field in the OpenAPI document.
import { z } from '#domain/zod.ts';

/** A SIM's usage (issue 39): bytes this Swedish calendar month and its last sighting, in the API's words. */
export const simUsageOutput = z
  .object({
    month: z.string().meta({
      description: 'The Swedish calendar month (Europe/Stockholm) the month figures are of: YYYY-MM.',
      example: '2026-11',
    }),
    monthBytesUp: z.number().meta({ description: 'Bytes sent by the SIM this month (uplink).', example: 48211968 }),
    monthBytesDown: z
      .number()
      .meta({ description: 'Bytes received by the SIM this month (downlink).', example: 1153433600 }),
    monthBytes: z.number().meta({ description: 'monthBytesUp + monthBytesDown.', example: 1201645568 }),
    lastSeenAt: z.string().nullable().meta({
      description: "The end of the SIM's latest usage record, ISO 8601 UTC; null if it has never been seen.",
      example: '2026-11-28T13:45:00.000Z',
    }),
    lastSeenNetwork: z
      .string()
      .nullable()
      .meta({ description: 'The network (MCC-MNC) of that record, if the network said.', example: '24001' }),
    lastSeenCountry: z
      .string()
      .nullable()
      .meta({ description: 'The country (ISO 3166 alpha-2) of that record, if the network said.', example: 'SE' }),
    asOf: z.string().nullable().meta({
      description:
        "How fresh the company's usage is: the end of the latest record taken for any of its SIMs, ISO 8601 UTC (null: none yet).",
      example: '2026-11-28T13:45:00.000Z',
    }),
  })
  .meta({ description: 'Usage this month and the last sighting; amounts in bytes, times in UTC.' });
