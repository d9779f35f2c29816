// Long: a dictionary, one entry per text grouped by screen; splitting it further would scatter the shared words.
// The Swedish texts every page or answer may show (the parts of one area are in the files beside it).
import { lookup } from './lookup.ts';
import { grouped } from './numbers.ts';

export { grouped };

export const t = {
  appName: 'SIM-portalen',
  back: '< Backa',
  home: {
    // One word per thing (docs/glossary.md): "Meny" is the phone's folded sections, not this page.
    title: 'Start',
    activate: 'Aktivera SIM-kort',
    activateMany: 'Aktivera flera SIM-kort',
    list: 'Visa SIM-kort',
    export: 'Exportera fakturaspecifikation till Excel',
    feedback: 'Lämna feedback',
    admin: 'Admin',
    logout: 'Logga ut',
  },
  login: {
    title: 'Logga in',
    email: 'E-postadress',
    submit: 'Skicka inloggningslänk',
    register: 'Har du inget konto? Kontakta supporten för att registrera ett konto.',
    sent: 'Om det finns ett konto för adressen har vi skickat en inloggningslänk till den. Kolla din inkorg och skräppost.',
    confirmTitle: 'Logga in',
    confirmText: 'Tryck på knappen för att logga in.',
    confirmButton: 'Logga in',
    linkInvalid: 'Inloggningslänken är ogiltig. Begär en ny länk nedan.',
    linkExpired: 'Inloggningslänken har gått ut. Begär en ny länk nedan.',
    linkUsed: 'Inloggningslänken har redan använts. Begär en ny länk nedan.',
    emailInvalid: 'Ange en giltig e-postadress.',
  },
  acting: {
    banner: (company: string) => `Du agerar som ${company}`,
    back: 'Tillbaka till eget företag',
  },
  crossSite: 'Förfrågan kom från en annan webbplats och avvisades.',
  pages: {
    add: 'Aktivera SIM-kort',
    addBulk: 'Aktivera flera SIM-kort',
    // The list holds active and paused SIMs: its name is the header's ("SIM-kort").
    sims: 'SIM-kort',
    sim: 'Redigera SIM-kort',
    export: 'Exportera fakturaspecifikation',
    feedback: 'Lämna feedback',
    admin: 'Admin',
    companies: 'Företag',
    company: 'Redigera företag',
    user: 'Redigera användare',
  },
  notFound: {
    title: 'Sidan finns inte',
    text: 'Sidan du söker finns inte eller så har du inte behörighet att se den.',
    home: 'Till startsidan',
  },
  forbidden: { title: 'Åtkomst nekad', text: 'Du har inte behörighet att se den här sidan.' },
  error: {
    title: 'Något gick fel',
    text: 'Ett oväntat fel inträffade. Försök igen om en stund.',
    // A form page whose data or action failed: the rest of the portal still works.
    page: 'Den här sidan kunde inte visas just nu. Inget har ändrats av felet; försök igen om en stund.',
    retry: 'Försök igen',
    // A form post that failed on the way (with JS): the form keeps what was typed.
    notSent: 'Det gick inte att spara just nu. Det du skrivit finns kvar; försök igen om en stund.',
  },
  // @texts:errors (refusals of procedures and API doors: server/errors/; every door answers { error, issues })
  errors: {
    badCursor: 'Ogiltig cursor: använd adressen i Link-huvudet från föregående svar.',
    unauthenticated: 'Du är inte inloggad.',
    forbidden: 'Du har inte behörighet till detta.',
    databaseDown: 'Databasen går inte att nå just nu. Försök igen om en stund.',
    // The 503 page a browser gets while the database is down.
    databaseDownTitle: 'Tillfälligt otillgänglig',
    retry: 'Försök igen',
    usePost: 'Använd POST.',
    // A signed-in user over the REST paths' requests per minute (an API key has its own text).
    rateLimited: (seconds: number) => `För många anrop till API:t. Försök igen om ${seconds} sekunder.`,
    // The same user's budget spent through the pages (a page, its data, a form post).
    pageRateLimited: (seconds: number) => `För många förfrågningar på kort tid. Försök igen om ${seconds} sekunder.`,
    // The company's budget (all its keys and users together) spent.
    companyRateLimited: (seconds: number) =>
      `För många anrop från företaget just nu. Försök igen om ${seconds} sekunder.`,
    companyNotFound: 'Företaget finns inte.',
    userNotFound: 'Användaren finns inte.',
    userNotInCompany: 'Användaren finns inte i det här företaget.',
    customerNumberTaken: 'Kundnumret används redan av ett annat företag.',
    emailTaken: 'E-postadressen används redan av en annan användare.',
    ownSuperAdmin: 'Du kan inte ta bort din egen behörighet som superadministratör.',
    superAdminOnlyStaff:
      'Bara användare i personalföretaget kan vara superadministratörer. Lägg till personen där i stället.',
    simNotFound: 'SIM-kortet finns inte.',
    simAlreadyActive: 'Det finns redan ett aktivt SIM-kort med det här ICCID-numret.',
    simLegacy: 'SIM-kortet har ett äldre abonnemang och kan inte ändras här. Kontakta supporten för att säga upp det.',
    // The services' own input messages (zod's others are under validation).
    fields: {
      text: (field: string) => `${field} måste vara text.`,
      maxChars: (field: string, max: number) => `${field} får vara högst ${max} tecken.`,
      companyName: 'Namnet',
      customerNumber: 'Kundnumret',
      invoiceNote: 'Fakturamärkningen',
      companyNameMissing: 'Ange företagets namn.',
      customerNumberMissing: 'Ange ett kundnummer.',
      invoiceInterval: 'Välj ett faktureringsintervall: monthly, quarterly, biannually eller annually.',
      search: 'Söktexten',
      negative: (field: string) => `${field} får inte vara negativt.`,
      userName: 'Namnet',
      userNameMissing: 'Ange ett namn.',
      email: 'E-postadressen',
      mark: (max: number) => `Högst ${max} tecken.`,
      iccid: {
        empty: 'Ange ICCID-numret.',
        notDigits: 'ICCID får bara innehålla siffror.',
        length: 'ICCID ska vara exakt 20 siffror.',
        checkDigit: 'ICCID-numrets kontrollsiffra stämmer inte. Kontrollera att du skrivit av det rätt.',
      },
    },
    // What a refusal says when no text of ours names it (the libraries' own refusals are English);
    // UNAUTHORIZED, FORBIDDEN and PAYLOAD_TOO_LARGE use the texts above and refused.tooLarge.
    byCode: lookup({
      PARSE_ERROR: 'Förfrågans innehåll är inte giltig JSON.',
      BAD_REQUEST: 'Ogiltiga uppgifter.',
      NOT_FOUND: 'Det du söker finns inte.',
      METHOD_NOT_SUPPORTED: 'Metoden stöds inte för den här sökvägen.',
      CONFLICT: 'Det går inte att genomföra ändringen.',
      UNSUPPORTED_MEDIA_TYPE: 'Innehållstypen måste vara application/json.',
      TOO_MANY_REQUESTS: 'För många förfrågningar. Försök igen om en stund.',
      INTERNAL_SERVER_ERROR: 'Något gick fel på servern.',
    }),
  },
  sims: {
    iccid: 'ICCID',
    iccidHint: '20 siffror, står på SIM-kortet eller dess hållare.',
    // The browser shows this under its own message when the ICCID does not match the field's pattern.
    iccidTitle: 'ICCID: 20 siffror (mellanslag mellan siffergrupperna går bra).',
    mark: 'Fakturamärkning',
    /** The list's column on a phone, where "Fakturamärkning" would break in the middle. */
    markShort: 'Märkning',
    note: 'Fakturakommentar',
    marksHint: 'Högst 200 tecken.',
    activate: 'Aktivera',
    save: 'Spara',
    deactivate: 'Avaktivera',
    search: 'Sök',
    searchLabel: 'Sök bland SIM-kort',
    searchPlaceholder: 'ICCID, märkning, kommentar eller abonnemang',
    edit: 'Redigera',
    editLabel: (iccid: string) => `Redigera SIM-kort ${iccid}`,
    // A viewer's row opens the SIM read-only.
    view: 'Visa',
    viewLabel: (iccid: string) => `Visa ${iccid}`,
    empty: 'Det finns inga aktiva SIM-kort ännu.',
    emptySearch: 'Inga SIM-kort matchar sökningen.',
    activateFirst: 'Aktivera ett SIM-kort',
    /** exact false: more than n match (a search's count stops at a cap). */
    count: (n: number, exact = true) =>
      !exact ? `Fler än ${grouped(n)} SIM-kort` : n === 1 ? '1 SIM-kort' : `${grouped(n)} SIM-kort`,
    page: (p: number, of: number, exact = true) =>
      exact
        ? `Sida ${grouped(p)} av ${grouped(of)}`
        : p <= of
          ? `Sida ${grouped(p)} av fler än ${grouped(of)}`
          : `Sida ${grouped(p)}`,
    previous: 'Föregående',
    next: 'Nästa',
    plan: 'Abonnemang',
    legacy:
      'Det här SIM-kortet har ett äldre abonnemang och kan inte redigeras här. Kontakta supporten för att säga upp det.',
    history: 'Historik',
    historyWhen: 'Datum',
    historyWhat: 'Händelse',
    historyWho: 'Av',
    historyOlder: 'Visa äldre händelser',
    historyNewest: 'Visa de senaste händelserna',
    historyOlderIntro: 'Äldre händelser.',
    kinds: {
      activated: 'Aktiverat',
      updated: 'Uppgifter ändrade',
      planChanged: 'Abonnemang ändrat',
      deactivated: 'Avaktiverat',
      paused: 'Pausad',
      resumed: 'Återupptagen',
    } as Record<string, string>,
    // History lines: what changed, from what to what.
    activatedWith: (plan: string) => `Aktiverat med abonnemanget ${plan}`,
    changed: {
      ratePlan: (from: string, to: string) => `Abonnemang ändrat från ${from} till ${to}`,
      invoiceLineMark: (from: string, to: string) => `Fakturamärkning ändrad från ${from} till ${to}`,
      invoiceLineNote: (from: string, to: string) => `Fakturakommentar ändrad från ${from} till ${to}`,
    },
    quoted: (text: string) => `”${text}”`,
    emptyValue: '(tom)',
    confirmTitle: 'Ta bort SIM-kort',
    confirmText: 'Är du säker på att du vill avaktivera SIM-kortet? Det går inte att ångra.',
    cancel: 'Avbryt',
    continue: 'Fortsätt',
    activated: 'SIM-kortet är aktiverat',
    updated: 'SIM-kortet är sparat',
    deactivated: 'SIM-kortet är avaktiverat',
    unchanged: 'Inga ändringar att spara.',
  },
  // @texts:plans (the rate plan selector; spec sections 4, 5 and 8)
  plans: {
    legend: 'Abonnemang',
    placeholder: 'Datamängd',
    callAndSms: 'Aktivera tal & SMS',
    roaming: 'Aktivera roaming',
    callAndSmsHelp: 'Kostnad tillkommer för tal & SMS. Se prislista för priser.',
    roamingHelp: 'Nationell & internationell roaming. Kostnad tillkommer för roaming. Se prislista för priser.',
    /** The word of the help texts that links to the price list (PRICE_LIST_URL), and the link's added words. */
    priceList: 'prislista',
    priceListNewTab: '(öppnas i en ny flik)',
    callAndSmsNeedsAmount: 'Du måste välja en datamängd för att kunna aktivera tal & SMS',
    roamingNeedsAmount: 'Du måste välja en datamängd för att kunna aktivera roaming',
    // "for 50 GB" or, when tal & SMS is the user's choice, "for 50 GB with/without tal & SMS".
    forAmount: (amount: string, callAndSms?: boolean) =>
      `för ${amount}${callAndSms === undefined ? '' : callAndSms ? ' med tal & SMS' : ' utan tal & SMS'}`,
    included: (what: string) => `Ingår alltid ${what}.`,
    unavailable: (what: string) => `Finns inte ${what}.`,
    chooseAmount: 'Välj en datamängd.',
    unknownAmount: 'Datamängden finns inte. Välj en annan.',
    callAndSmsUnavailable: (what: string) => `Tal & SMS finns inte ${what}. Ta bort krysset för Aktivera tal & SMS.`,
    callAndSmsRequired: (what: string) => `Tal & SMS ingår alltid ${what}. Kryssa i Aktivera tal & SMS.`,
    roamingUnavailable: (what: string) => `Roaming finns inte ${what}. Ta bort krysset för Aktivera roaming.`,
    roamingRequired: (what: string) => `Roaming ingår alltid ${what}. Kryssa i Aktivera roaming.`,
    noPlan: 'Det finns inget abonnemang med den valda kombinationen. Ändra valen.',
  },
  // @texts:export (export screen)
  export: {
    title: 'Exportera fakturaspecifikation',
    intro: 'Välj period. Filen innehåller en rad per SIM-kort, månad och abonnemang, och en sammanställning per månad.',
    start: 'Från',
    end: 'Till',
    startYear: 'Startår',
    startMonth: 'Startmånad',
    endYear: 'Slutår',
    endMonth: 'Slutmånad',
    submit: 'Exportera',
    busy: 'Exporterar …',
    done: (filename: string) => `Filen ${filename} har laddats ner.`,
    presetsLabel: 'Snabbval',
    presets: {
      lastMonth: 'Förra månaden',
      thisMonth: 'Denna månad',
      lastQuarter: 'Förra kvartalet',
      thisQuarter: 'Detta kvartal',
      lastYear: 'Förra året',
      thisYear: 'I år',
    },
    // The spec's texts for a failed download (section 8).
    errorTitle: 'Error',
    errorFallback: 'An error occurred',
  },
  // @texts:feedback (feedback screen)
  feedback: {
    title: 'Lämna feedback',
    intro: 'Berätta vad som fungerar bra, vad som krånglar eller vad du saknar. Meddelandet går till supporten.',
    label: 'Ditt meddelande',
    counter: (n: number, max: number) => `${n} / ${max} tecken`,
    send: 'Skicka',
    sending: 'Skickar …',
    thanks: 'Tack för din feedback! Vi har tagit emot ditt meddelande.',
    failed: 'Något gick fel, försök igen senare',
    blank: 'Skriv ett meddelande innan du skickar.',
  },
  theme: { toggle: 'Byt tema', dark: 'Mörkt', light: 'Ljust' },
  /** A secret shown once: its copy button (app/components/SecretCopy.tsx). */
  copy: { copy: 'Kopiera', done: 'Kopierad' },
  // @texts:validation (zod's messages for input that has no message of its own; mostly API callers see them)
  validation: {
    missing: (field: string) => `${field} saknas.`,
    type: (field: string, what: string) => `${field} måste vara ${what}.`,
    types: lookup({
      number: 'ett tal',
      int: 'ett heltal',
      string: 'text',
      boolean: 'true eller false',
      object: 'ett objekt',
      array: 'en lista',
      date: 'ett datum',
    }),
    otherType: 'ett annat slags värde',
    atLeast: (field: string, min: string) => `${field} måste vara minst ${min}.`,
    above: (field: string, min: string) => `${field} måste vara större än ${min}.`,
    atMost: (field: string, max: string) => `${field} får vara högst ${max}.`,
    below: (field: string, max: string) => `${field} måste vara mindre än ${max}.`,
    empty: (field: string) => `${field} får inte vara tom.`,
    minChars: (field: string, min: string) => `${field} måste ha minst ${min} tecken.`,
    maxChars: (field: string, max: string) => `${field} får ha högst ${max} tecken.`,
    minItems: (field: string, min: string) => `${field} måste ha minst ${min} värden.`,
    maxItems: (field: string, max: string) => `${field} får ha högst ${max} värden.`,
    oneOf: (field: string, values: string) => `${field} måste vara ${values}.`,
    or: 'eller',
    unknownKeys: (keys: string) => `Okänt fält: ${keys}.`,
    format: (field: string) => `${field} har fel format.`,
    email: (field: string) => `${field} måste vara en giltig e-postadress.`,
    multipleOf: (field: string, n: string) => `${field} måste vara en multipel av ${n}.`,
    invalid: (field: string) => `${field} har ett ogiltigt värde.`,
    value: 'Värdet',
  },
  // @texts:refused (requests refused at the door, before any page or procedure: server/http/guards.ts)
  refused: {
    title: 'Förfrågan avvisades',
    back: 'Tillbaka till startsidan',
    tooLarge: (kB: number) => `Förfrågan är för stor (högst ${kB} kB).`,
    badText: 'Förfrågan innehåller ogiltiga tecken (ett nolltecken eller felaktig UTF-8).',
    badHost: 'Ogiltig Host-rubrik.',
    badForm: 'Formulärets innehåll gick inte att läsa.',
    notAForm: 'Sidan tar bara emot ett formulär (application/x-www-form-urlencoded eller multipart/form-data).',
    batchTooLarge: (max: number) => `För många anrop i en och samma förfrågan (högst ${max}).`,
  },
} as const;
