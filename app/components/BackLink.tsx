import { Link, useLocation } from '@remix-run/react';
import { t } from '#domain/texts/common.ts';
import { backHref } from '#app/utils/paths.ts';

/** "< Backa" to the parent path (a SIM's: the list as it was); shown on every page except the home menu. */
export function BackLink() {
  const { pathname, search } = useLocation();
  if (pathname === '/' || pathname === '/login') return null;
  return (
    <Link className="back" to={backHref(pathname, search)} prefetch="intent">
      {t.back}
    </Link>
  );
}
