// Any other path under /api: 404 in the API's error shape. The spec's REST paths never reach Remix: Express
// answers them first (restMiddleware in server/api/handlers.ts).
import { errorBody } from '../../server/errors/domain';
import { t } from '~/texts';

const notFound = () => Response.json(errorBody(t.errors.byCode.NOT_FOUND!), { status: 404, headers: { 'Cache-Control': 'no-store' } });

export const loader = notFound;
export const action = notFound;
