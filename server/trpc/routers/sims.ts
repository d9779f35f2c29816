// SIM procedures: one per operation, each scoped to the session's company.
import { rowId, z } from '#domain/zod.ts';
import {
  activateInput,
  editInput,
  listApiInput,
  listInput,
  matchingInput,
  matchingOutput,
  simDetailOutput,
  simHistoryInput,
  simHistoryOutput,
  simOutput,
} from '#domain/sims/schemas.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import {
  activateSim,
  deactivateSim,
  editSim,
  getSim,
  HISTORY_PAGE,
  listSims,
  simHistory,
  simPage,
  simsByIds,
  type Actor,
} from '#server/sims/service.ts';
import { tBulk } from '#domain/texts/bulk.ts';
import { t } from '#domain/texts/common.ts';
import { activateBulk, countActivatedBy, deactivateBulk } from '#server/sims/bulk.ts';
import {
  bulkActivateInput,
  bulkActivateSummaryInput,
  bulkActivateOutput,
  bulkDeactivateInput,
  bulkDeactivateOutput,
} from '#domain/sims/schemas.ts';
import { companyProcedure, companyWriteProcedure, router } from '#server/trpc/trpc.ts';
import { Invalid } from '#domain/errors.ts';
import { auditBulk } from '#server/audit/activity.ts';

/** An opaque cursor of GET /api/sim/all: the last SIM of a page (the next starts after it in the list's order). */
const cursorOf = (id: number) => Buffer.from(`s1:${id}`).toString('base64url');
function cursorId(cursor: string): number {
  const m = /^s1:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw Invalid.field('cursor', t.errors.badCursor);
  return id;
}

/** The caller of a SIM change: the session's user, or the API key (issue 16). */
const actor = (ctx: {
  companyId: number;
  session: { userId: number; actingCompanyId: number | null } | null;
  apiKey: { id: number; name: string } | null;
}): Actor =>
  ctx.apiKey
    ? { companyId: ctx.companyId, userId: null, apiKey: { id: ctx.apiKey.id, name: ctx.apiKey.name } }
    : { companyId: ctx.companyId, userId: ctx.session!.userId, actingCompanyId: ctx.session!.actingCompanyId };

export const simsRouter = router({
  activate: companyWriteProcedure
    .meta({ openapi: { method: 'POST', path: '/sim', tags: ['sims'], summary: 'Activate a SIM' } })
    .input(activateInput)
    .output(z.object({ success: z.boolean(), id: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const sim = await activateSim(ctx.em, actor(ctx), input);
      await ctx.notify('info', 'SIM-kortet är aktiverat', `ICCID ${sim.iccid}`);
      return { success: true, id: sim.id };
    }),
  /** A page of the list (limit, offset), as the REST path /sim/all of the spec serves it. */
  list: companyProcedure
    // operationId: the name API clients have generated code from, kept when the procedure was renamed.
    .meta({
      openapi: {
        method: 'GET',
        path: '/sim/all',
        operationId: 'sim-all',
        tags: ['sims'],
        summary: "The company's active SIMs; optional q (search), limit and offset, or cursor",
        description:
          'Newest first. When there is a next page, the answer has a `Link: <url>; rel="next"` header (RFC 8288): follow it to walk the whole fleet with a cursor, which stays right while SIMs are activated (limit and offset still work, for a page by number).',
      },
    })
    .input(listApiInput)
    .output(z.array(simOutput))
    .query(async ({ ctx, input }) => {
      const limit = input.limit ?? 50;
      const afterId = input.cursor === undefined ? undefined : cursorId(input.cursor);
      // One more than asked: whether there is a next page, without counting.
      const { items } = await listSims(ctx.em, ctx.companyId, {
        ...input,
        limit: limit + 1,
        afterId,
        signal: ctx.signal,
        timeoutMs: ctx.services.config.searchTimeoutMs,
      });
      const page = items.slice(0, limit);
      if (items.length > limit) {
        const next = new URLSearchParams();
        if (input.q) next.set('q', input.q);
        next.set('limit', String(limit));
        next.set('cursor', cursorOf(page.at(-1)!.id));
        ctx.resHeaders.set('Link', `<${ctx.services.config.appUrl}/api/sim/all?${next}>; rel="next"`);
      }
      return page;
    }),
  /** The same list with the total, for the paginated screen. */
  page: companyProcedure
    .input(listInput)
    // exact: false when a search matches more than SEARCH_COUNT_CAP (total is then the cap: "more than").
    .output(z.object({ items: z.array(simOutput), total: z.number(), exact: z.boolean() }))
    .query(async ({ ctx, input }) => {
      const { items, total, exact } = await listSims(ctx.em, ctx.companyId, {
        ...input,
        withTotal: true,
        signal: ctx.signal,
        timeoutMs: ctx.services.config.searchTimeoutMs,
      });
      return { items, total: total ?? 0, exact };
    }),
  /**
   * What "all that match" selects on /sims for a bulk deactivation: the first BULK_SELECT_MAX SIMs the search finds, only
   * what the confirmation names (id, ICCID, legacy), and how many match in all. The lists stay one page each.
   */
  matching: companyProcedure
    .input(matchingInput)
    .output(matchingOutput)
    .query(async ({ ctx, input }) => {
      const { items, total, exact } = await listSims(ctx.em, ctx.companyId, {
        q: input.q,
        limit: BULK_SELECT_MAX,
        offset: 0,
        withTotal: true,
        signal: ctx.signal,
        timeoutMs: ctx.services.config.searchTimeoutMs,
      });
      const rows = items.map((s) => ({ id: s.id, iccid: s.iccid, legacy: s.ratePlan.isLegacy }));
      return { rows, total: total ?? 0, exact };
    }),
  /** The SIMs of a list of ids (1 to 10,000), whatever their status: the bulk pages name each row. */
  byIds: companyProcedure
    .input(bulkDeactivateInput)
    .output(z.array(simOutput))
    .query(({ ctx, input }) => simsByIds(ctx.em, ctx.companyId, input.ids)),
  byId: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sim/{id}',
        tags: ['sims'],
        summary: 'One SIM with its history',
        description: `history: the newest ${HISTORY_PAGE} events, newest first; older ones a page at a time from GET /api/sim/{id}/history.`,
      },
    })
    .input(z.object({ id: rowId() }))
    .output(simDetailOutput)
    .query(({ ctx, input }) => getSim(ctx.em, ctx.companyId, input.id)),
  history: companyProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/sim/{id}/history',
        tags: ['sims'],
        summary: "A page of a SIM's history",
        description: `${HISTORY_PAGE} events a page, newest first; before (the previous page's nextBefore) gives the next, older page.`,
      },
    })
    .input(simHistoryInput)
    .output(simHistoryOutput)
    .query(({ ctx, input }) => simHistory(ctx.em, ctx.companyId, input.id, input.before)),
  /** The SIM page: the SIM and a page of its history in one call (tRPC only). */
  detail: companyProcedure
    .input(simHistoryInput)
    .output(z.object({ sim: simOutput, history: simHistoryOutput }))
    .query(({ ctx, input }) => simPage(ctx.em, ctx.companyId, input.id, input.before)),
  edit: companyWriteProcedure
    .meta({ openapi: { method: 'PUT', path: '/sim/edit', tags: ['sims'], summary: 'Edit marks and rate plan' } })
    .input(editInput)
    .output(z.object({ success: z.boolean(), changed: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const result = await editSim(ctx.em, actor(ctx), input);
      if (result.changed) await ctx.notify('info', 'SIM-kortet är sparat', '');
      return { success: true, ...result };
    }),
  deactivate: companyWriteProcedure
    .meta({ openapi: { method: 'POST', path: '/sim/deactivate/{id}', tags: ['sims'], summary: 'Deactivate a SIM' } })
    .input(z.object({ id: rowId() }))
    .output(z.object({ success: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const sim = await deactivateSim(ctx.em, actor(ctx), input.id);
      await ctx.notify('info', 'SIM-kortet är avaktiverat', `ICCID ${sim.iccid}`);
      return { success: true };
    }),

  // Bulk work (issue 15): one outcome per row; a refused row is an outcome, not an error.
  bulkActivate: companyWriteProcedure
    .meta({
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
    .input(bulkActivateInput)
    .output(bulkActivateOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await activateBulk(ctx.em, actor(ctx), input);
      if (!input.dryRun) {
        await auditBulk(ctx.em, actor(ctx), 'bulkActivate', answer.counts.activated, answer.results.length);
        const done = answer.counts.activated;
        await ctx.notify(
          done > 0 ? 'info' : 'error',
          tBulk.activatedTitle(done),
          tBulk.summary(done, answer.results.length - done),
        );
      }
      return answer;
    }),
  /**
   * The same as bulkActivate without the toast, tRPC only (no REST path): the browser sends a long list in
   * chunks for its progress bar, then asks bulkActivateSummary for the run's one toast.
   */
  bulkActivateChunk: companyWriteProcedure
    .input(bulkActivateInput)
    .output(bulkActivateOutput)
    .mutation(({ ctx, input }) => activateBulk(ctx.em, actor(ctx), input)),
  /** The one toast of a chunked run: the activated count is read from the database, never taken on trust. */
  bulkActivateSummary: companyWriteProcedure
    .input(bulkActivateSummaryInput)
    .output(z.object({ activated: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const done = Math.min(await countActivatedBy(ctx.em, actor(ctx), input.simIds), input.total);
      // A chunked run is one bulk run in the company's trail too, as bulkActivate is.
      await auditBulk(ctx.em, actor(ctx), 'bulkActivate', done, input.total);
      await ctx.notify(
        done > 0 ? 'info' : 'error',
        tBulk.activatedTitle(done),
        tBulk.summary(done, input.total - done),
      );
      return { activated: done };
    }),
  bulkDeactivate: companyWriteProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sim/bulk/deactivate',
        tags: ['sims'],
        summary: 'Deactivate a list of SIMs (1 to 10,000 ids)',
        description:
          'One answer for the whole list, each id with its outcome. A list of more than 10,000 ids is refused with 400 and { error, issues }: split it.',
      },
    })
    .input(bulkDeactivateInput)
    .output(bulkDeactivateOutput)
    .mutation(async ({ ctx, input }) => {
      const answer = await deactivateBulk(ctx.em, actor(ctx), input);
      await auditBulk(ctx.em, actor(ctx), 'bulkDeactivate', answer.counts.deactivated, answer.results.length);
      const done = answer.counts.deactivated;
      await ctx.notify(
        done > 0 ? 'info' : 'error',
        tBulk.deactivatedTitle(done),
        tBulk.summary(done, answer.results.length - done),
      );
      return answer;
    }),
});
