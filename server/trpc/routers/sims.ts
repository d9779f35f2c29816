// SIM procedures: one per operation, each scoped to the session's company; the bulk ones in sims-bulk.ts.
import { rowId, z } from '#domain/zod.ts';
import {
  activateInput,
  bulkDeactivateInput,
  editInput,
  listApiInput,
  listInput,
  matchingInput,
  matchingOutput,
  simDetailOutput,
  simHistoryInput,
  simHistoryOutput,
  simListedOutput,
  simOutput,
} from '#domain/sims/schemas.ts';
import { viewOf } from '#domain/sims/view.ts';
import { withUsageAndTags } from '#server/sims/usage.ts';
import { changeTags } from '#server/sims/tags.ts';
import { simTagsOutput, tagChangeInput, tagChangeOutput } from '#domain/sims/tags.ts';
import { tTags } from '#domain/texts/tags.ts';
import { BULK_SELECT_MAX } from '#domain/sims/limits.ts';
import { activateSim } from '#server/sims/activate.ts';
import { actorOf } from '#server/sims/changes.ts';
import { deactivateSim } from '#server/sims/deactivate.ts';
import { pausedByOutput } from '#domain/sims/pause.ts';
import { editSim } from '#server/sims/edit.ts';
import { listSims } from '#server/sims/list.ts';
import { getSim, HISTORY_PAGE, simHistory, simPage, simsByIds } from '#server/sims/read.ts';
import { t } from '#domain/texts/common.ts';
import { companyProcedure, companyWriteProcedure, router, idempotent } from '#server/trpc/trpc.ts';
import { Invalid } from '#domain/errors.ts';
import { simsBulkProcedures } from './sims-bulk.ts';
import { simsPauseProcedures } from './sims-pause.ts';

/** An opaque cursor of GET /api/sim/all: the last SIM of a page (the next starts after it in the list's order). */
const cursorOf = (id: number) => Buffer.from(`s1:${id}`).toString('base64url');
function cursorId(cursor: string): number {
  const m = /^s1:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw Invalid.field('cursor', t.errors.badCursor);
  return id;
}

export const simsRouter = router({
  activate: companyWriteProcedure
    .meta({ idempotent: true, openapi: { method: 'POST', path: '/sim', tags: ['sims'], summary: 'Activate a SIM' } })
    .use(idempotent)
    .input(activateInput)
    .output(z.object({ success: z.boolean(), id: z.number() }))
    .mutation(async ({ ctx, input }) => {
      const sim = await activateSim(ctx.em, actorOf(ctx), input);
      await ctx.notify('info', t.sims.activated, `ICCID ${sim.iccid}`);
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
        summary:
          "The company's SIMs in the fleet (active and paused); optional q (search), tag (each one given), status (active or paused), limit and offset, or cursor",
        description:
          'Newest first. When there is a next page, the answer has a `Link: <url>; rel="next"` header (RFC 8288): follow it to walk the whole fleet with a cursor, which stays right while SIMs are activated (limit and offset still work, for a page by number). tag (repeat it for up to 5) lists the SIMs that have every tag given. status=active or status=paused lists only those (left out: both; a paused SIM keeps its number and plan but carries no data). Each SIM has its `tags` (in text order) and its `usage`: bytes this Swedish calendar month (Europe/Stockholm) and its last sighting, times in ISO 8601 UTC.',
      },
    })
    .input(listApiInput)
    .output(z.array(simListedOutput))
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
      const page = await withUsageAndTags(ctx.em, ctx.companyId, items.slice(0, limit));
      const last = page.at(-1);
      if (items.length > limit && last) {
        const next = new URLSearchParams();
        if (input.q) next.set('q', input.q);
        for (const tag of input.tag ?? []) next.append('tag', tag);
        if (input.status) next.set('status', input.status);
        next.set('limit', String(limit));
        next.set('cursor', cursorOf(last.id));
        ctx.resHeaders.set('Link', `<${ctx.services.config.appUrl}/api/sim/all?${next}>; rel="next"`);
      }
      return page;
    }),
  /** The same list with the total, for the paginated screen. */
  page: companyProcedure
    .input(listInput)
    // exact: false when a search matches more than SEARCH_COUNT_CAP (total is then the cap: "more than").
    .output(z.object({ items: z.array(simListedOutput), total: z.number(), exact: z.boolean() }))
    .query(async ({ ctx, input }) => {
      const { items, total, exact } = await listSims(ctx.em, ctx.companyId, {
        ...input,
        view: viewOf(input.sort, input.filter),
        withTotal: true,
        signal: ctx.signal,
        timeoutMs: ctx.services.config.searchTimeoutMs,
      });
      const listed = await withUsageAndTags(ctx.em, ctx.companyId, items);
      return { items: listed, total: total ?? 0, exact };
    }),
  /**
   * What "all that match" selects on /sims for a bulk deactivation or pause: the first BULK_SELECT_MAX SIMs the search (and the tags and state) finds, only
   * what the confirmation names (id, ICCID, legacy), and how many match in all. The lists stay one page each.
   */
  matching: companyProcedure
    .input(matchingInput)
    .output(matchingOutput)
    .query(async ({ ctx, input }) => {
      const { items, total, exact } = await listSims(ctx.em, ctx.companyId, {
        q: input.q,
        tag: input.tag,
        status: input.status,
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
        summary: 'One SIM with its usage and history',
        description: `usage: bytes this Swedish calendar month (Europe/Stockholm) and the last sighting, times in ISO 8601 UTC. history: the newest ${HISTORY_PAGE} events, newest first; older ones a page at a time from GET /api/sim/{id}/history.`,
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
    .output(
      z.object({
        sim: simOutput.extend({ tags: simTagsOutput, pausedBy: pausedByOutput.nullable() }),
        history: simHistoryOutput,
      }),
    )
    .query(({ ctx, input }) => simPage(ctx.em, ctx.companyId, input.id, input.before)),
  edit: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: { method: 'PUT', path: '/sim/edit', tags: ['sims'], summary: 'Edit marks and rate plan' },
    })
    .use(idempotent)
    .input(editInput)
    .output(z.object({ success: z.boolean(), changed: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const result = await editSim(ctx.em, actorOf(ctx), input);
      if (result.changed) await ctx.notify('info', t.sims.updated, '');
      return { success: true, ...result };
    }),
  deactivate: companyWriteProcedure
    .meta({
      idempotent: true,
      openapi: { method: 'POST', path: '/sim/deactivate/{id}', tags: ['sims'], summary: 'Deactivate a SIM' },
    })
    .use(idempotent)
    .input(z.object({ id: rowId() }))
    .output(z.object({ success: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const sim = await deactivateSim(ctx.em, actorOf(ctx), input.id);
      await ctx.notify('info', t.sims.deactivated, `ICCID ${sim.iccid}`);
      return { success: true };
    }),
  tags: companyWriteProcedure
    .meta({
      idempotent: true,
      weighs: ['ids'],
      openapi: {
        method: 'POST',
        path: '/sim/tags',
        tags: ['sims'],
        summary: 'Add and remove tags on SIMs: a list of ids, or every SIM a search finds',
        description:
          'ids (1 to 10,000) or q (every SIM of the fleet the search of GET /api/sim/all finds; "" for all; with q, tag (every one given, up to 5) and status (active or paused) narrow it as they narrow the list), add and remove (up to 20 tags each; a tag in both is added). A tag is 1 to 40 characters, trimmed, inner spaces made one; a SIM has at most 30 (a SIM that would get more is left as it was and counted in full). changed: the SIMs whose tags changed. One statement, whatever the number of SIMs.',
      },
    })
    .use(idempotent)
    .input(tagChangeInput)
    .output(tagChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await changeTags(ctx.em, ctx.companyId, input);
      if (result.changed > 0) await ctx.notify('info', tTags.changedTitle(result.changed), '');
      return { success: true, ...result };
    }),
  // Bulk work: routers/sims-bulk.ts.
  ...simsBulkProcedures,
  ...simsPauseProcedures,
});
