// Where "< Backa" leads: the parent path of the current one.
export function parentPath(pathname: string): string {
  const parts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  parts.pop();
  const parent = '/' + parts.join('/');
  // /auth/* (the login link's page) has no page above it but the login.
  return parent === '/auth' ? '/login' : parent;
}

/** Only a local path may be a redirect target (no //host, no scheme). */
export function safeRedirectTarget(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  return target;
}
