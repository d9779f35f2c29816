// GET /api/sim/export?format=csv|xlsx&q=&tag=&sort=&filter= : the /sims list as a file, straight from Express, mounted before the
// REST door. Not a Remix resource route like the invoice export: the REST door would take the path first
// (GET /api/sim/{id} matches /api/sim/export), and a Node stream is written to the Node response as it is,
// without a conversion to a fetch Response. It needs no page work either: a plain link is its only form.
import type { ListState } from '#domain/sims/pause.ts';
import { pipeline } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import { t } from '#domain/texts/common.ts';
import { FILTERS, SORTS } from '#domain/sims/view.ts';
import { Unauthenticated } from '#domain/errors.ts';
import type { Services } from '#server/services.ts';
import type { Context } from '#server/trpc/context.ts';
import { createCaller } from '#server/trpc/caller.ts';
import { sendRestError } from './rest.ts';
import { httpError } from './answer.ts';
import { isNavigation, sendErrorPage } from './refusal.ts';

/** One value of the query, as typed; a repeated or missing name is '' (the procedure refuses it). */
const single = (value: unknown) => (typeof value === 'string' ? value : '');
/** A value that may be given once or more (?tag=a&tag=b), as a list; none: undefined. */
const many = (value: unknown) =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.map((v) => (typeof v === 'string' ? v : ''))
      : undefined;
/** One of `list`, or undefined. */
const known = <T extends string>(list: readonly T[], value: unknown): T | undefined => list.find((v) => v === value);
/** An optional value: left out when not given. */
const optional = (value: unknown) => single(value) || undefined;

export function listExportDoor(services: Services, contextOf: (req: Request) => Promise<Context>): RequestHandler {
  return (req, res) => {
    void (async () => {
      const ctx = await contextOf(req);
      if (!ctx.session && !ctx.apiKey) throw new Unauthenticated(t.errors.unauthenticated);
      // The list's search, tags and view (sort, usage filter), as /sims links them (app/sims/links.ts).
      const file = await createCaller(ctx).export.simList({
        format: single(req.query.format),
        q: optional(req.query.q),
        tag: many(req.query.tag),
        // Any text: the procedure's schema refuses one it does not know (400), as GET /api/sim/all does.
        status: optional(req.query.status) as ListState | undefined,
        // As the /sims page reads them (viewOf): a value it does not know is the default.
        sort: known(SORTS, req.query.sort),
        filter: known(FILTERS, req.query.filter),
      });
      res.status(200).set({
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Cache-Control': 'no-store',
      });
      // A client that goes away destroys the file's stream too, which stops its reads (list-export.ts).
      pipeline(file.stream, res, () => {});
    })().catch((err: unknown) => {
      // A link clicked in the browser (the /sims page's export): a Swedish page, not JSON, when it cannot be had.
      const answer = httpError(err, req.id);
      if (isNavigation(req) && !answer.unexpected && !res.headersSent) {
        services.log.warn({ reqId: req.id, status: answer.status }, 'download refused');
        return sendErrorPage(res, answer);
      }
      sendRestError(req, res, err, services.log);
    });
  };
}
