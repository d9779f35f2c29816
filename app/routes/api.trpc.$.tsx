// The native tRPC endpoint for the browser's @trpc/client (app/utils/trpc.client.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';

export const loader = ({ request, context }: LoaderFunctionArgs) => context.api.trpc(request);
export const action = ({ request, context }: ActionFunctionArgs) => context.api.trpc(request);
