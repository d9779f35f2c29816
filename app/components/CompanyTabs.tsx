// The parts of "Mitt företag" (the owner's pages): its users, the activity, webhooks, rules, API keys and sign-in.
import { Tabs } from '#app/components/ui/Tabs.tsx';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tCompany } from '#domain/texts/company.ts';
import { tRules } from '#domain/texts/rules.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tWebhooks } from '#domain/texts/webhooks.ts';

export function CompanyTabs() {
  return (
    <Tabs
      label={tCompany.title}
      items={[
        { to: '/company', label: tCompany.usersTitle },
        { to: '/company/activity', label: tCompany.activityLink },
        { to: '/company/webhooks', label: tWebhooks.link },
        { to: '/company/rules', label: tRules.link },
        { to: '/company/api-keys', label: tApiKeys.homeLink },
        { to: '/company/sign-in', label: tSecurity.sso.tab },
      ]}
    />
  );
}
