// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:security (passkeys, recovery codes, step-up, single sign-on, the sessions a user sees: the page "Säkerhet")
export const tSecurity = {
  title: 'Säkerhet',
  menuLink: 'Säkerhet',
  tabs: { passkeys: 'Nycklar', sessions: 'Inloggningar' },
  stepUp: {
    required:
      'Bekräfta att det är du med din nyckel (passkey) först: ändringen kräver en bekräftelse som är högst 10 minuter gammal.',
    failed: 'Nyckeln kunde inte bekräftas. Försök igen.',
  },
  methods: {
    link: 'e-postlänk',
    passkey: 'nyckel',
    sso: 'företagets inloggning',
    recovery: 'återställningskod',
  } as Record<string, string>,
  audit: {
    signIn: (method: string) => `Loggade in (${method})`,
    stepUpFailed: 'Misslyckad bekräftelse med nyckel',
    passkeyAdded: (name: string) => `Lade till nyckeln ${name}`,
    passkeyRemoved: (name: string) => `Tog bort nyckeln ${name}`,
    passkeysReset: (who: string) => `Återställde nycklarna för ${who}`,
    recoveryCodeUsed: 'Använde en återställningskod',
    recoveryCodesCreated: 'Skapade nya återställningskoder',
    ssoConfigured: (issuer: string) => `Ställde in inloggning via ${issuer}`,
    ssoRemoved: 'Tog bort inloggningen via identitetsleverantör',
    sessionEnded: (who: string) => `Avslutade en inloggning för ${who}`,
    passkeysRequired: 'Krävde nycklar för alla användare',
    passkeysNotRequired: 'Slutade kräva nycklar för alla användare',
  },
} as const;
