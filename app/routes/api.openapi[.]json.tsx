// GET /api/openapi.json: the OpenAPI 3.1 document generated from the router.
import type { LoaderFunctionArgs } from '@remix-run/node';

export const loader = ({ context }: LoaderFunctionArgs) => Response.json(context.api.openapi(), { headers: { 'Cache-Control': 'public, max-age=300' } });
