// The lasting header: the portal's name, the company (or whom a super admin acts as), the sections the caller's role
// may open, the user's menu and the theme switch. Without JavaScript the phone's menu and the user's menu are
// <details>; with it they fold again after a navigation.
import { Link, useLocation } from '@remix-run/react';
import { LogoutForm } from './LogoutForm.tsx';
import { t } from '#domain/texts/common.ts';
import { tHeader } from '#domain/texts/header.ts';
import type { Theme } from '#app/utils/theme.ts';

export type Section = keyof typeof tHeader.sections;

const HREF: Record<Section, string> = {
  sims: '/sims',
  usage: '/usage',
  add: '/add',
  export: '/export',
  company: '/company',
  admin: '/admin',
};

export type HeaderUser = {
  name: string;
  companyName: string;
  actingCompanyName: string | null;
  sections: Section[];
};

/** "Anna Andersson" -> "AA": the user's button on a phone, where the name does not fit. */
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join('');

const isUnder = (href: string, pathname: string) => pathname === href || pathname.startsWith(`${href}/`);

function Sections({ sections, pathname }: { sections: Section[]; pathname: string }) {
  return (
    <ul>
      {sections.map((s) => (
        <li key={s}>
          <Link to={HREF[s]} aria-current={isUnder(HREF[s], pathname) ? 'page' : undefined} prefetch="intent">
            {tHeader.sections[s]}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function AppHeader({ user, theme }: { user: HeaderUser | null; theme: Theme }) {
  const { pathname } = useLocation();
  return (
    <header className="header">
      <div className="header-bar">
        <div className="header-id">
          <Link className="brand" to="/">
            {t.appName}
          </Link>
          {user && !user.actingCompanyName ? (
            <span className="header-company" title={user.companyName}>
              <span className="visually-hidden">{tHeader.company}: </span>
              {user.companyName}
            </span>
          ) : null}
        </div>
        {user ? (
          <>
            <nav className="appnav appnav-wide" aria-label={tHeader.sectionsLabel}>
              <Sections sections={user.sections} pathname={pathname} />
            </nav>
            {/* Keyed by the path: a client-side navigation keeps the header, and folds its menus as a new page would. */}
            <details className="header-menu appnav-narrow" key={`m${pathname}`}>
              <summary>{tHeader.menu}</summary>
              <nav className="header-panel appnav" aria-label={tHeader.sectionsLabel}>
                <Sections sections={user.sections} pathname={pathname} />
              </nav>
            </details>
            <details className="header-menu usermenu" key={`u${pathname}`}>
              {/* The name is the button's text (its initials on a phone, the name then read but not shown). */}
              <summary title={user.name}>
                <span className="usermenu-initials" aria-hidden="true">
                  {initials(user.name)}
                </span>
                <span className="usermenu-name">{user.name}</span>
                <span className="visually-hidden">{tHeader.userMenuSuffix}</span>
              </summary>
              <div className="header-panel usermenu-panel">
                <Link to="/security" aria-current={isUnder('/security', pathname) ? 'page' : undefined}>
                  {tHeader.security}
                </Link>
                <LogoutForm className="btn btn-link">{tHeader.logout}</LogoutForm>
              </div>
            </details>
          </>
        ) : null}
        <form method="post" action="/theme" className="header-theme">
          <input type="hidden" name="theme" value={theme === 'light' ? 'dark' : 'light'} />
          <button className="btn btn-link" type="submit">
            <span className="theme-words">{theme === 'light' ? t.theme.dark : t.theme.light} tema</span>
          </button>
        </form>
      </div>
      {user?.actingCompanyName ? (
        <div className="acting" role="status">
          <span className="acting-name" title={t.acting.banner(user.actingCompanyName)}>
            {t.acting.banner(user.actingCompanyName)}
          </span>
          <form method="post" action="/auth/own-company">
            <button className="btn btn-small" type="submit">
              {t.acting.back}
            </button>
          </form>
        </div>
      ) : null}
    </header>
  );
}
