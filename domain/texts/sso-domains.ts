// The texts of a single sign-on domain's proof of ownership (the owner's and the super admin's sign-in settings)
// and its one refusal, which never says why a domain is refused or who else may have it.
export const tSsoDomains = {
  heading: 'Domäner och ägarbevis',
  intro:
    'En domän används för inloggning via identitetsleverantören först när företaget har visat att det äger den: lägg till TXT-posten nedan i domänens DNS och välj Kontrollera. Låt posten ligga kvar; den kontrolleras igen när inställningarna sparas.',
  none: 'Inga domäner är sparade än.',
  verified: 'Bekräftad',
  unverified: 'Inte bekräftad',
  recordName: 'Namn',
  recordType: 'Typ',
  recordValue: 'Värde',
  check: 'Kontrollera',
  checkLabel: (domain: string) => `Kontrollera ${domain}`,
  /** The one message for every refused domain (public mail service, another company's users or proof). */
  refused: (domain: string) =>
    `Domänen ${domain} kan inte användas för inloggning via identitetsleverantör. En domän kan bara användas av ett företag som äger den och vars adresser inte redan används av andra, och aldrig för en allmän e-posttjänst.`,
  results: {
    verified: (domain: string) =>
      `Domänen ${domain} är bekräftad. Adresser i den loggar nu in via identitetsleverantören.`,
    missing: (domain: string) =>
      `TXT-posten för ${domain} hittades inte. En ny post kan ta en stund att synas; kontrollera namnet och värdet och försök igen.`,
    unavailable: (domain: string) => `DNS svarade inte för ${domain} just nu. Försök igen om en stund.`,
  },
  unknownDomain: 'Domänen finns inte bland företagets domäner.',
} as const;
