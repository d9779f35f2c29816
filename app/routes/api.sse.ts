// GET /api/sse: the event stream of toasts for the logged-in user's open tabs (server/events/sse.ts).
import type { LoaderFunctionArgs } from '@remix-run/node';

export const loader = ({ request, context }: LoaderFunctionArgs) => context.api.events(request);
