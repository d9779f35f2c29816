import type { LoaderFunctionArgs } from '@remix-run/node';
import { PageNotBuilt } from '~/components/PageNotBuilt';
import { t } from '~/texts';
import { requireUser } from '~/utils/auth.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireUser(request, context);
  return null;
}

export default function Page() {
  return <PageNotBuilt title={t.pages.add} />;
}
