// The two parts of the page "Säkerhet": the user's passkeys and recovery codes, and their signed-in sessions.
import { NavLink } from '@remix-run/react';
import { tSecurity } from '#domain/texts/security.ts';

export function SecurityTabs() {
  return (
    <nav className="tabs" aria-label={tSecurity.title}>
      <NavLink to="/security" end>
        {tSecurity.tabs.passkeys}
      </NavLink>
      <NavLink to="/security/sessions" end>
        {tSecurity.tabs.sessions}
      </NavLink>
    </nav>
  );
}
