import { Link, useLocation } from '@remix-run/react';
import { t } from '#domain/texts/common.ts';
import { parentPath } from '#app/utils/paths.ts';

/** "< Backa" to the parent path; shown on every page except the home menu. */
export function BackLink() {
  const { pathname } = useLocation();
  if (pathname === '/' || pathname === '/login') return null;
  return (
    <Link className="back" to={parentPath(pathname)} prefetch="intent">
      {t.back}
    </Link>
  );
}
