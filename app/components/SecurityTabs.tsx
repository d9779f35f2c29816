// The two parts of the page "Säkerhet": the user's passkeys and recovery codes, and their signed-in sessions.
import { Tabs } from '#app/components/ui/Tabs.tsx';
import { tSecurity } from '#domain/texts/security.ts';

export function SecurityTabs() {
  return (
    <Tabs
      label={tSecurity.title}
      items={[
        { to: '/security', label: tSecurity.tabs.passkeys },
        { to: '/security/sessions', label: tSecurity.tabs.sessions },
      ]}
    />
  );
}
