// Any other path under /api: 404 in the API's error shape. Express answers the API itself (server/api: the REST
// paths, /api/trpc, /api/sse, /api/openapi.json); only the export download is a Remix route under /api, so the
// unknown paths are answered here rather than by an Express rule that would have to leave that one out.
import { errorBody } from '#domain/errors.ts';
import { t } from '#domain/texts/common.ts';

const notFound = () =>
  Response.json(errorBody(t.errors.byCode.NOT_FOUND), { status: 404, headers: { 'Cache-Control': 'no-store' } });

export const loader = notFound;
export const action = notFound;
