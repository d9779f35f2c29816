// Any other path under /api: 404 in the API's error shape. The spec's REST paths never reach Remix: Express
// answers them first (restMiddleware in server/api/handlers.ts).
const notFound = () => Response.json({ error: 'Det du söker finns inte.', issues: [] }, { status: 404, headers: { 'Cache-Control': 'no-store' } });

export const loader = notFound;
export const action = notFound;
