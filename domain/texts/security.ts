// Long: a dictionary of one page's texts (passkeys, recovery codes, step-up, SSO, sessions), one entry per text.
// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:security (passkeys, recovery codes, step-up, single sign-on, the sessions a user sees: the page "Säkerhet")
import { lookup } from './lookup.ts';
import { passkeyWords as w, tPasskeyPrompt } from './passkey-prompt.ts';

export const tSecurity = {
  /** The passkey's one name (passkey-prompt.ts): "inloggningsnyckel (passkey)", never a bare "nyckel". */
  passkeyWords: w,
  title: 'Säkerhet',
  menuLink: 'Säkerhet',
  tabs: { passkeys: w.Many, sessions: 'Inloggningar' },
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
    resetHeading: `Återställ ${w.many}`,
    passkeyCount: (n: number) => (n === 1 ? `Användaren har 1 ${w.one}.` : `Användaren har ${n} ${w.many}.`),
    resetExplain: `Tar bort användarens alla ${w.many} och återställningskoder och loggar ut alla användarens inloggningar. Användaren lägger till en ny ${w.one} vid nästa inloggning.`,
    reset: `Återställ ${w.many}`,
    resetOwn: `Dina egna ${w.many} hanterar du på sidan Säkerhet.`,
    resetConfirm: (name: string) => `Vill du återställa ${w.theMany} för ${name}?`,
    resetYes: `Ja, återställ ${w.theMany}`,
    cancel: 'Avbryt',
    resetDone: (passkeys: number, sessions: number) =>
      `${w.Many} är återställda: ${passkeys} ${passkeys === 1 ? `${w.one} borttagen` : `${w.many} borttagna`}, ${sessions} ${sessions === 1 ? 'inloggning utloggad' : 'inloggningar utloggade'}.`,
  },
  stepUp: {
    required: `Bekräfta att det är du med din ${w.full} först: ändringen kräver en bekräftelse som är högst 10 minuter gammal.`,
    // Adding a passkey to a signed-in session is itself a sensitive change.
    toAdd: `Bekräfta att det är du innan du lägger till en ${w.one}: med en ${w.one} du redan har, en återställningskod eller företagets inloggning.`,
    toAddNone: `Bekräfta att det är du innan du lägger till en ${w.one}: med en länk till din e-post (eller företagets inloggning).`,
    failed: `${w.One} kunde inte bekräftas. Försök igen.`,
  },
  // The user's passkeys on /security.
  passkeys: {
    heading: `${w.Many} (passkeys)`,
    intro: `En ${w.full} loggar in dig utan lösenord, med fingeravtryck, ansikte eller skärmlås på din enhet. Den är inte samma sak som företagets API-nycklar.`,
    none: `Du har inga ${w.many} ännu.`,
    name: 'Namn',
    created: 'Skapad',
    lastUsed: 'Senast använd',
    never: 'Aldrig',
    storage: 'Lagring',
    synced: 'Synkad (säkerhetskopierad)',
    device: 'Bara på enheten',
    remove: 'Ta bort',
    removeLabel: (name: string) => `Ta bort ${w.the} ${name}`,
    addHeading: `Lägg till ${w.one}`,
    nameLabel: `Namn på ${w.the}`,
    nameHint: 'Till exempel enheten den finns på.',
    defaultName: (n: number) => `${w.One} ${n}`,
    add: `Lägg till ${w.one}`,
    adding: tPasskeyPrompt.adding,
    needsJs: tPasskeyPrompt.needsJs,
    unsupported: `Webbläsaren stöder inte ${w.many} (passkeys).`,
    added: (name: string) => `${w.One} ${name} är tillagd.`,
    removed: (name: string) => `${w.One} ${name} är borttagen.`,
    lastRequired: `Du måste ha minst en ${w.one}: lägg till en ny innan du tar bort den sista.`,
    notFound: `${w.One} finns inte.`,
    failed: `${w.One} kunde inte användas. Försök igen.`,
    cancelled: 'Det avbröts eller tog för lång tid. Försök igen.',
    expired: 'Försöket har gått ut eller redan använts. Försök igen.',
    alreadyAdded: `Den ${w.the} är redan tillagd.`,
    notSignedIn: 'Du är inte inloggad.',
  },
  // Single-use recovery codes: when no passkey is at hand.
  recovery: {
    heading: 'Återställningskoder',
    left: (n: number) =>
      n === 1 ? 'Du har 1 oanvänd återställningskod.' : `Du har ${n} oanvända återställningskoder.`,
    explain: `En återställningskod kan användas en gång i stället för en ${w.one}, om du inte har den till hands.`,
    create: 'Skapa nya återställningskoder',
    createHint: 'De gamla koderna slutar då att gälla.',
    shownOnce:
      'Spara koderna på ett säkert ställe nu, till exempel i en lösenordshanterare. De visas bara den här gången.',
    codesTitle: 'Dina återställningskoder',
    download: 'Ladda ner som textfil',
    print: 'Skriv ut',
    fileName: 'sim-portalen-aterstallningskoder.txt',
    fileTitle: 'SIM-portalen: dina återställningskoder',
    fileNote: 'Varje kod kan användas en gång. De gamla koderna slutar gälla när du skapar nya.',
    formHeading: 'Använd en återställningskod',
    codeLabel: 'Återställningskod',
    codeHint: 'Formatet är xxxx-xxxx-xxxx.',
    submit: 'Använd koden',
    wrong: 'Koden stämmer inte eller är redan använd.',
    tooMany: 'För många felaktiga försök. Vänta en stund och försök igen.',
    continue: 'Fortsätt',
  },
  // /login/passkey: the passkey after the e-mail link, or the first passkey to add.
  secondFactor: {
    title: 'Bekräfta inloggningen',
    intro: `Bekräfta med din ${w.full} för att logga in.`,
    button: `Bekräfta med din ${w.one}`,
    registerTitle: `Lägg till en ${w.one}`,
    registerIntro: `Ditt konto kräver att du loggar in med en ${w.full}. Lägg till en ${w.one} på den här enheten för att fortsätta.`,
    registerButton: `Lägg till ${w.one}`,
    registered: `${w.One} är tillagd och du är inloggad.`,
    logout: 'Logga ut',
  },
  // Signing in with a passkey alone, from /login.
  signIn: {
    button: tPasskeyPrompt.signIn,
    or: 'eller',
    failed: `Inloggningen med ${w.one} misslyckades. Försök igen eller logga in med e-postlänk.`,
  },
  // The step-up notice in the layout and the page /security/confirm.
  stepUpPrompt: {
    ...tPasskeyPrompt.stepUp,
    title: 'Bekräfta att det är du',
    intro: `Bekräfta med din ${w.full}. Bekräftelsen gäller i 10 minuter.`,
    done: 'Bekräftat. Du kan göra ändringar i 10 minuter.',
    continue: 'Fortsätt',
    // Other ways than the passkey, on /security/confirm.
    otherWays: 'Har du inte den till hands?',
    ssoIntro: 'Du loggade in via företagets inloggning, som kräver MFA: du kan bekräfta där i stället.',
    // A user without a passkey: a link to their e-mail, then a passkey (/security/confirm).
    noneIntro: `Du har ingen ${w.full} ännu. Bekräfta att det är du med en länk som vi skickar till din e-postadress, och lägg sedan till en ${w.one} på den här enheten. Sedan kommer du tillbaka dit du var.`,
    sendLink: 'Skicka länk till min e-post',
    linkSent: (email: string) =>
      `Vi har skickat en länk till ${email}. Öppna den i den här webbläsaren inom 10 minuter. Länken kan bara användas en gång.`,
    linkSentAgain: 'Inget mejl? Vänta en minut och skicka en ny länk.',
    // /security/confirm/link: the link from the mail (a POST uses it, so a mail scanner's GET does not).
    linkTitle: 'Bekräfta med e-postlänken',
    linkIntro: 'Tryck på Bekräfta för att bekräfta att det är du. Bekräftelsen gäller i 10 minuter.',
    linkButton: 'Bekräfta',
    linkProblem: {
      invalid:
        'Länken fungerar inte här. Den kan vara gammal, redan använd, eller öppnad i en annan webbläsare än den där du bad om den. Be om en ny länk.',
      hasPasskey: `Du har redan en ${w.one}: bekräfta med den (eller en återställningskod) i stället.`,
      tooMany: 'Du har bett om många länkar. Vänta en stund och försök igen.',
    },
    linkAgain: 'Be om en ny länk',
    // After the e-mail link, a user without a passkey adds one (JS), or goes on without (the proof holds 10 minutes).
    addTitle: `Lägg till en ${w.one}`,
    addIntro: `Bekräftat. Lägg nu till en ${w.full} på den här enheten: nästa gång bekräftar du med den direkt, utan e-post.`,
    addAndContinue: `Lägg till ${w.one} och fortsätt`,
    continueWithout: `Fortsätt utan ${w.one}`,
    continueWithoutHint: 'Bekräftelsen via e-post gäller i 10 minuter; sedan behövs en ny länk.',
  },
  // Mails to the user when their passkeys change: whoever added one with a stolen session is found out.
  mail: {
    linkSubject: 'Bekräfta att det är du – SIM-portalen',
    link: (name: string, link: string, minutes: number) =>
      `Hej ${name}!\n\nDu har bett om att bekräfta att det är du i SIM-portalen, för att lägga till en ${w.full} eller göra en ändring som kräver bekräftelse.\n\nÖppna länken nedan i samma webbläsare och tryck på "Bekräfta":\n\n${link}\n\nLänken gäller i ${minutes} minuter och kan bara användas en gång.\nHar du inte bett om det här? Logga in och logga ut inloggningar du inte känner igen under Säkerhet > Inloggningar.\n`,
    linkHtmlLead: (name: string) => `Hej ${name}!`,
    linkHtmlBody: `Du har bett om att bekräfta att det är du i SIM-portalen, för att lägga till en ${w.full} eller göra en ändring som kräver bekräftelse. Öppna länken nedan i samma webbläsare och tryck på "Bekräfta":`,
    linkHtmlButton: 'Bekräfta att det är du',
    linkHtmlFoot: (minutes: number) =>
      `Länken gäller i ${minutes} minuter och kan bara användas en gång. Har du inte bett om det här? Logga in och logga ut inloggningar du inte känner igen under Säkerhet > Inloggningar.`,
    addedSubject: `En ${w.one} har lagts till på ditt konto – SIM-portalen`,
    removedSubject: `En ${w.one} har tagits bort från ditt konto – SIM-portalen`,
    resetSubject: `Dina ${w.many} har återställts – SIM-portalen`,
    added: (name: string) => `${w.One} "${name}" har lagts till på ditt konto i SIM-portalen.`,
    removed: (name: string) => `${w.One} "${name}" har tagits bort från ditt konto i SIM-portalen.`,
    reset: (n: number) =>
      `Support har återställt ${n === 1 ? `din ${w.one}` : `dina ${n} ${w.many}`} och dina återställningskoder i SIM-portalen. Du lägger till en ny ${w.one} nästa gång du loggar in.`,
    when: (at: string) => `Tid: ${at}.`,
    notYou: `Var det inte du? Logga in, ta bort ${w.the} under Säkerhet och logga ut inloggningar du inte känner igen under Säkerhet > Inloggningar. Kontakta sedan företagets administratör.`,
    greeting: (name: string) => `Hej ${name}!`,
  },
  methods: {
    link: 'e-postlänk',
    passkey: w.one,
    sso: 'företagets inloggning',
    recovery: 'återställningskod',
  } as Record<string, string>,
  audit: {
    signIn: (method: string) => `Loggade in (${method})`,
    stepUpFailed: `Misslyckad bekräftelse med ${w.one}`,
    stepUpByEmail: 'Bekräftade med e-postlänk',
    passkeyAdded: (name: string) => `Lade till ${w.the} ${name}`,
    passkeyRemoved: (name: string) => `Tog bort ${w.the} ${name}`,
    passkeysReset: (who: string) => `Återställde ${w.theMany} för ${who}`,
    recoveryCodeUsed: 'Använde en återställningskod',
    recoveryCodesCreated: 'Skapade nya återställningskoder',
    ssoConfigured: (issuer: string) => `Ställde in inloggning via ${issuer}`,
    ssoRemoved: 'Tog bort inloggningen via identitetsleverantör',
    ssoDomainVerified: (domain: string) => `Domänen ${domain} bekräftades (TXT-posten hittades)`,
    ssoDomainUnverified: (domain: string) => `Domänen ${domain} är inte längre bekräftad (TXT-posten saknas)`,
    sessionEnded: (who: string) => `Avslutade en inloggning för ${who}`,
    passkeysRequired: `Krävde ${w.many} för alla användare`,
    passkeysNotRequired: `Slutade kräva ${w.many} för alla användare`,
  },
  sso: {
    title: 'Inloggning',
    link: 'Inloggning och identitetsleverantör',
    /** Its tab among the company's pages. */
    tab: 'Inloggning',
    intro:
      'Låt användarna logga in via företagets identitetsleverantör (OpenID Connect). Adresser i domänerna nedan skickas dit när de loggar in.',
    callbackHint: (url: string) => `Ange ${url} som omdirigerings-URI hos identitetsleverantören.`,
    providerHeading: 'Identitetsleverantör (OpenID Connect)',
    configured: (issuer: string) => `Inloggning via ${issuer} är inställd.`,
    notConfigured: 'Ingen identitetsleverantör är inställd.',
    issuer: 'Utfärdarens URL (issuer)',
    clientId: 'Klient-id',
    clientSecret: 'Klienthemlighet',
    clientSecretKeep: 'Lämna tomt för att behålla den sparade hemligheten.',
    domains: 'Domäner',
    domainsHint: 'En per rad eller kommaseparerade, t.ex. foretag.se',
    allowEmailLink: 'Tillåt e-postlänk för dessa domäner',
    createUsers: 'Skapa konton vid första inloggningen (som Medarbetare)',
    mfaClaim: 'Identitetsleverantören kräver MFA: amr/acr-värde',
    mfaClaimHint: `T.ex. mfa. Lämna tomt om leverantören inte anger MFA; då krävs ${w.full} som vanligt.`,
    save: 'Spara inloggning',
    saved: 'Inloggningen via identitetsleverantören är sparad.',
    remove: 'Ta bort inloggning via identitetsleverantör',
    removed: 'Inloggningen via identitetsleverantören är borttagen.',
    passkeysHeading: `${w.Many} (passkeys)`,
    requirePasskeys: `Kräv ${w.many} (passkeys) för alla användare`,
    savePasskeys: 'Spara',
    passkeysSaved: `Inställningen för ${w.many} är sparad.`,
    stepUpLink: `Bekräfta med ${w.one}`,
    stepUpSso: 'Bekräfta via företagets inloggning',
    errors: {
      issuer: 'Ange utfärdarens URL med https:// (http:// bara för den egna datorn).',
      clientId: 'Ange klient-id (högst 300 tecken).',
      clientSecret: 'Ange klienthemligheten (högst 1000 tecken).',
      domains: 'Ange minst en domän, t.ex. foretag.se.',
      domain: (domain: string) => `${domain} är inte en giltig domän.`,
      tooManyDomains: 'Högst 50 domäner.',
      mfaClaim: 'Högst 200 tecken.',
      noKey: 'Servern saknar krypteringsnyckel för klienthemligheter (SSO_SECRET_KEY). Kontakta driften.',
      // Where the issuer or an endpoint its discovery names may not be reached (the address policy of webhooks).
      issuerAddress: {
        invalid: 'Ange utfärdarens URL med https:// (http:// bara för den egna datorn).',
        scheme: 'Ange utfärdarens URL med https:// (http:// bara för den egna datorn).',
        credentials: 'Utfärdarens URL får inte innehålla användarnamn eller lösenord.',
        loopback: 'Utfärdarens URL får inte peka på den egna servern.',
        private: 'Utfärdarens URL får inte peka på ett internt nät (privata, lokala eller reserverade adresser).',
        unresolved: 'Utfärdarens värdnamn finns inte (DNS).',
      } as Record<string, string>,
      providerUnreachable: (url: string) =>
        `Identitetsleverantören svarar inte på ${url}. Kontrollera utfärdarens URL och försök igen.`,
      discoveryInvalid: (url: string) =>
        `${url} svarar inte med en giltig OpenID Connect-beskrivning för den här utfärdaren (fältet issuer måste vara utfärdarens URL).`,
      endpoint: (name: string, reason: string) =>
        `Identitetsleverantörens beskrivning (discovery) anger ${name} som inte kan användas: ${reason}`,
      endpointReasons: lookup({
        missing: 'den saknas.',
        invalid: 'det är ingen giltig URL.',
        scheme: 'den måste börja med https://.',
        credentials: 'den får inte innehålla användarnamn eller lösenord.',
        loopback: 'den pekar på den egna servern.',
        private: 'den pekar på ett internt nät.',
        unresolved: 'värdnamnet finns inte (DNS).',
      }),
    },
    problems: lookup({
      unavailable: 'Företagets inloggning svarar inte just nu. Försök igen om en stund.',
      misconfigured: 'Företagets inloggning svarar inte som den ska. Kontakta företagets IT-avdelning.',
      invalid: 'Inloggningen via företagets identitetsleverantör kunde inte slutföras. Börja om från inloggningen.',
      denied: 'Identitetsleverantören avbröt inloggningen.',
      unverified: 'Identitetsleverantören har inte bekräftat din e-postadress. Kontakta företagets IT-avdelning.',
      noAccount:
        'Det finns inget konto för din adress hos det här företaget. Be företagets administratör att lägga till dig.',
      tooMany: 'För många inloggningsförsök härifrån. Vänta en stund och försök igen.',
    }),
    continueTitle: 'Till företagets inloggning',
    continueLink: 'Fortsätt till företagets inloggning',
    problemTitle: 'Inloggningen misslyckades',
    backToLogin: 'Till inloggningen',
  },
} as const;
