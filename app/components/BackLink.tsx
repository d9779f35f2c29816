import { Link, useLocation } from '@remix-run/react';
import { t } from '~/texts';
import { parentPath } from '~/utils/paths';

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
