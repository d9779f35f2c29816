// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:security (passkeys, recovery codes, step-up, single sign-on, the sessions a user sees: the page "Säkerhet")
export const tSecurity = {
  title: 'Säkerhet',
  menuLink: 'Säkerhet',
  tabs: { passkeys: 'Nycklar', sessions: 'Inloggningar' },
  // The signed-in sessions a user sees on /security/sessions, and a super admin on a user's page.
  sessions: {
    heading: 'Inloggningar',
    intro: 'Här ser du var du är inloggad. Logga ut en inloggning du inte känner igen; den slutar gälla direkt.',
    browser: 'Webbläsare',
    address: 'Adress',
    signedIn: 'Inloggad',
    lastSeen: 'Senast aktiv',
    thisDevice: 'Den här enheten',
    unknownBrowser: 'Okänd webbläsare',
    unknownAddress: 'Okänd',
    browserOn: (browser: string, os: string) => `${browser} på ${os}`,
    via: (method: string) => `med ${method}`,
    end: 'Logga ut',
    endLabel: (browser: string) => `Logga ut ${browser}`,
    endOthers: 'Logga ut alla andra',
    endOthersHint: 'Alla inloggningar utom den här enheten slutar gälla direkt.',
    none: 'Inga andra inloggningar.',
    noneForUser: 'Användaren är inte inloggad någonstans.',
    more: (shown: number) => `Visar de ${shown} senast aktiva.`,
    ended: 'Inloggningen är utloggad.',
    endedOthers: (n: number) =>
      n === 0
        ? 'Det fanns inga andra inloggningar.'
        : n === 1
          ? '1 inloggning är utloggad.'
          : `${n} inloggningar är utloggade.`,
    notFound: 'Inloggningen finns inte (den kan redan vara utloggad).',
    userNotFound: 'Användaren finns inte.',
    failed: 'Det gick inte',
    // The super admin's user page.
    adminHeading: 'Inloggningar',
    resetHeading: 'Återställ nycklar',
    passkeyCount: (n: number) => (n === 1 ? 'Användaren har 1 nyckel.' : `Användaren har ${n} nycklar.`),
    resetExplain:
      'Tar bort användarens alla nycklar och återställningskoder och loggar ut alla användarens inloggningar. Användaren lägger till en ny nyckel vid nästa inloggning.',
    reset: 'Återställ nycklar',
    resetConfirm: (name: string) => `Vill du återställa nycklarna för ${name}?`,
    resetYes: 'Ja, återställ nycklarna',
    cancel: 'Avbryt',
    resetDone: (passkeys: number, sessions: number) =>
      `Nycklarna är återställda: ${passkeys} ${passkeys === 1 ? 'nyckel' : 'nycklar'} borttagna, ${sessions} ${sessions === 1 ? 'inloggning' : 'inloggningar'} utloggade.`,
  },
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
