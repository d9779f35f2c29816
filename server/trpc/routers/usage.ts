// The company's usage (issue 39): totals per day and month, by SIM, plan and country; GET /api/usage (paged by
// cursor as GET /api/sim/all is), the /usage page's read and files, and the home page's overview.
import { createHash } from 'node:crypto';
import { Invalid } from '#domain/errors.ts';
import { tCompanyUsage } from '#domain/texts/company-usage.ts';
import { nextDay, parseDay, parsePeriod, type Period } from '#domain/usage/period.ts';
import { monthStart, swedishDay } from '#domain/usage/time.ts';
import { listLimit, z } from '#domain/zod.ts';
import { tagFilter, tagSchema } from '#domain/sims/tags.ts';
import { usageAsOf } from '#server/usage/as-of.ts';
import {
  companyUsage,
  companyUsagePages,
  keyOf,
  PAGE_GROUPS,
  USAGE_GRANULARITIES,
  USAGE_GROUPS,
  type UsageGroup,
  type UsageRow,
} from '#server/usage/company.ts';
import { USAGE_FILE_FORMATS, usageFile } from '#server/usage/company-file.ts';
import { companyOverview } from '#server/usage/overview.ts';
import { cursorKeys, cursorOf, nextLink } from '#server/trpc/cursor.ts';
import { companyProcedure, router } from '#server/trpc/trpc.ts';

/** The longest period a read covers, in Swedish days: a year of days, or the totals' 36 months of months. */
export const USAGE_MAX_DAYS = { day: 366, month: 1096 } as const;
/** The most rows the /usage page shows (the files have them all). */
export const USAGE_PAGE_ROWS = 2000;

const e = tCompanyUsage.errors;
const periodField = (which: 'from' | 'to') =>
  z
    .string()
    .max(40)
    .optional()
    .meta({
      description: `${which === 'from' ? 'The first' : 'The last'} day of the period, YYYY-MM-DD (a Swedish calendar day, Europe/Stockholm; both days included), or an ISO 8601 time with offset (its Swedish day is taken whole: totals are per day). ${which === 'from' ? 'Default: the first day of this Swedish month.' : 'Default: today (Swedish).'}`,
      example: which === 'from' ? '2026-11-01' : '2026-11-28',
    });

const usageQueryFields = {
  granularity: z.enum(USAGE_GRANULARITIES, { error: e.granularity }).default('day').meta({
    description:
      'day: a row per Swedish calendar day; month: per Swedish calendar month, the whole months the period touches.',
    example: 'day',
  }),
  from: periodField('from'),
  to: periodField('to'),
};

export const usageListInput = z.object({
  groupBy: z.enum(USAGE_GROUPS, { error: e.groupBy }).meta({
    description:
      "sim: each SIM; plan: each rate plan; country: each country (ISO 3166 alpha-2); tag: each of the company's tags (a record counts under the tags its SIM had when it was taken in, so under each of a SIM's tags; a tag counts from when it was set).",
    example: 'plan',
  }),
  ...usageQueryFields,
  tag: tagFilter.meta({
    description:
      'With groupBy=sim: the SIMs that have every tag given (now; repeat it for up to 5). With groupBy=tag: those tags only. Not with plan or country.',
    example: ['Kylbilar'],
  }),
  limit: listLimit(),
  cursor: z.string().max(300).optional().meta({ description: "The previous answer's Link header gives it (opaque)." }),
});

export const usageRowOutput = z
  .object({
    period: z.string().meta({
      description: 'The Swedish calendar day (YYYY-MM-DD) or month (YYYY-MM), Europe/Stockholm.',
      example: '2026-11-28',
    }),
    simId: z.number().nullable().meta({ description: 'groupBy=sim: the SIM (else null).', example: null }),
    iccid: z.string().nullable().meta({ description: "groupBy=sim: the SIM's ICCID.", example: null }),
    ratePlanId: z.number().nullable().meta({ description: 'groupBy=plan: the rate plan.', example: 3 }),
    ratePlanCode: z.string().nullable().meta({ example: 'DATA5GB' }),
    ratePlanDescription: z.string().nullable().meta({ example: 'Data 5 GB' }),
    country: z.string().nullable().meta({
      description: 'groupBy=country: ISO 3166 alpha-2; null for the usage whose country the network did not say.',
      example: null,
    }),
    tag: z.string().nullable().meta({ description: 'groupBy=tag: the tag (else null).', example: null }),
    bytesUp: z.number().meta({ description: 'Bytes sent (uplink).', example: 48211968 }),
    bytesDown: z.number().meta({ description: 'Bytes received (downlink).', example: 1153433600 }),
    bytes: z.number().meta({ description: 'bytesUp + bytesDown.', example: 1201645568 }),
    records: z.number().meta({ description: 'How many usage records the total is of.', example: 2880 }),
  })
  .meta({ description: 'A total of one period and one SIM, plan or country; amounts in bytes.' });

/** The period asked for, or this Swedish month to today; a bad one is a 400 naming its field. */
function periodOf(input: { from?: string; to?: string; granularity: 'day' | 'month' }, now = new Date()): Period {
  const today = swedishDay(now);
  const r = parsePeriod(input.from || monthStart(today), input.to || today, USAGE_MAX_DAYS[input.granularity]);
  if (!r.ok) throw Invalid.field(r.field, r.message);
  return r.period;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const KEY: Record<UsageGroup, (k: string) => boolean> = {
  sim: (k) => /^\d{1,10}$/.test(k) && Number(k) <= 2_147_483_647,
  plan: (k) => /^\d{1,10}$/.test(k) && Number(k) <= 2_147_483_647,
  country: (k) => /^[A-Z]{0,2}$/.test(k),
  tag: (k) => tagSchema.safeParse(k).data === k,
};

export const usageRouter = router({
  list: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/usage',
        operationId: 'usage',
        tags: ['usage'],
        summary: "The company's usage per day or month, by SIM, rate plan or country",
        description:
          'Totals of the period (from, to: Swedish calendar days, Europe/Stockholm, both included; at most 366 days per day, 1096 per month), in period order, then by SIM id, rate plan id, country or tag (code point order). tag narrows groupBy=sim and groupBy=tag. Amounts in bytes. A page of `limit` rows (1 to 50, default 50); when there is a next page, the answer has a `Link: <url>; rel="next"` header (RFC 8288): follow it as it is until an answer has none. Late records change the totals of their own day and month.',
      },
    })
    .input(usageListInput)
    .output(z.array(usageRowOutput))
    .query(async ({ ctx, input }) => {
      const period = periodOf(input);
      const tags = input.tag ?? [];
      if (tags.length && input.groupBy !== 'sim' && input.groupBy !== 'tag') throw Invalid.field('tag', e.tagGroup);
      // The tags are in the cursor's kind (a digest: five tags of 40 characters would not fit): a next page of other
      // tags' rows is refused.
      const tagged = tags.length
        ? `:${createHash('sha256').update(JSON.stringify(tags)).digest('base64url').slice(0, 16)}`
        : '';
      const kind = `u1:${input.groupBy}:${input.granularity}${tagged}`;
      const periodOk = input.granularity === 'month' ? (k: string) => MONTH.test(k) : (k: string) => !!parseDay(k);
      const after =
        input.cursor === undefined
          ? undefined
          : (([p, k]) => ({ period: p ?? '', key: k ?? '' }))(
              cursorKeys(input.cursor, kind, [periodOk, KEY[input.groupBy]]),
            );
      const { rows, more } = await companyUsage(ctx.em, ctx.companyId, {
        group: input.groupBy,
        granularity: input.granularity,
        period,
        limit: input.limit,
        after,
        tags,
      });
      const last = rows.at(-1);
      if (more && last) {
        const next = new URLSearchParams({
          groupBy: input.groupBy,
          granularity: input.granularity,
          from: period.firstDay,
          to: period.lastDay,
          limit: String(input.limit),
        });
        for (const tag of tags) next.append('tag', tag);
        next.set('cursor', cursorOf(kind, [last.period, keyOf(last)]));
        ctx.resHeaders.set('Link', nextLink(ctx.services.config.appUrl, '/usage', next));
      }
      return rows;
    }),

  /** The /usage page: a period's rows by plan or country (at most USAGE_PAGE_ROWS), and how fresh the data is. */
  page: companyProcedure
    .input(z.object({ groupBy: z.enum(PAGE_GROUPS), ...usageQueryFields }))
    .query(async ({ ctx, input }) => {
      const period = periodOf(input);
      const rows: UsageRow[] = [];
      // Each period's total over every row (the chart), also past the rows shown.
      const totals = new Map<string, number>();
      let seen = 0;
      for await (const page of companyUsagePages(ctx.em, ctx.companyId, {
        group: input.groupBy,
        granularity: input.granularity,
        period,
      })) {
        seen += page.length;
        for (const r of page) totals.set(r.period, (totals.get(r.period) ?? 0) + r.bytes);
        if (rows.length < USAGE_PAGE_ROWS) rows.push(...page.slice(0, USAGE_PAGE_ROWS - rows.length));
      }
      const cut = seen > rows.length;
      // Every day of the period, 0 where nothing was used (per day only: the chart is of days).
      const days: Array<{ day: string; bytes: number }> = [];
      if (input.granularity === 'day')
        for (let d = period.firstDay; d <= period.lastDay; d = nextDay(d))
          days.push({ day: d, bytes: totals.get(d) ?? 0 });
      const asOf = await usageAsOf(ctx.em, ctx.companyId);
      return { rows, cut, days, firstDay: period.firstDay, lastDay: period.lastDay, asOf: asOf?.toISOString() ?? null };
    }),

  /** The same rows as a CSV or XLSX file, being written (usage.csv, usage.xlsx). In-process only: a stream. */
  file: companyProcedure
    .input(
      z.object({
        format: z.enum(USAGE_FILE_FORMATS, { error: e.format }),
        groupBy: z.enum(PAGE_GROUPS, { error: e.groupBy }),
        ...usageQueryFields,
      }),
    )
    .query(({ ctx, input }) =>
      usageFile(ctx.em, ctx.services.log, ctx.companyId, {
        format: input.format,
        group: input.groupBy,
        granularity: input.granularity,
        period: periodOf(input),
      }),
    ),

  /** The home page's overview of the company, in one call. */
  overview: companyProcedure.input(z.void()).query(({ ctx }) => companyOverview(ctx.em, ctx.companyId)),
});
