// Every Swedish text the user sees, in one place. Server code may import it too (it is plain data).
export const t = {
  appName: 'SIM-portalen',
  back: '< Backa',
  home: {
    title: 'Meny',
    activate: 'Aktivera SIM-kort',
    list: 'Visa befintliga SIM-kort',
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
    sims: 'Aktiva SIM-kort',
    sim: 'Redigera SIM-kort',
    export: 'Exportera fakturaspecifikation',
    feedback: 'Lämna feedback',
    admin: 'Admin',
    companies: 'Företag',
    company: 'Redigera företag',
    user: 'Redigera användare',
  },
  notBuilt: 'Den här sidan byggs just nu och kommer snart.',
  notFound: {
    title: 'Sidan finns inte',
    text: 'Sidan du söker finns inte eller så har du inte behörighet att se den.',
    home: 'Till startsidan',
  },
  forbidden: { title: 'Åtkomst nekad', text: 'Du har inte behörighet att se den här sidan.' },
  error: { title: 'Något gick fel', text: 'Ett oväntat fel inträffade. Försök igen om en stund.' },
  // @texts:sims (SIM screens)
  // @texts:export (export screen)
  // @texts:admin (admin screens)
  // @texts:feedback (feedback screen)
  theme: { toggle: 'Byt tema', dark: 'Mörkt', light: 'Ljust' },
} as const;
