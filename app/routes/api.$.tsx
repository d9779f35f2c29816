// The spec's REST paths under /api, served by the tRPC procedures (trpc-to-openapi, server/api/handlers.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

export const loader = ({ request, context }: LoaderFunctionArgs) => context.api.rest(request);
export const action = ({ request, context }: ActionFunctionArgs) => context.api.rest(request);
