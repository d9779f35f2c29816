// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:passkey-prompt (what the layout's step-up notice and a passkey button show before a ceremony starts; the
// rest of the passkey texts, the ceremony's answers included, are in security.ts, loaded with the ceremony)

/**
 * The one name of a passkey wherever the portal names it to a user: "inloggningsnyckel", never a bare "nyckel"
 * (an API key is a "nyckel" too). Defined here, in the layout's small chunk, because the layout's notice names it;
 * security.ts (and every other text) builds on it.
 */
export const passkeyWords = {
  /** The first mention on a page: the Swedish word and the word people know. */
  full: 'inloggningsnyckel (passkey)',
  one: 'inloggningsnyckel',
  the: 'inloggningsnyckeln',
  many: 'inloggningsnycklar',
  theMany: 'inloggningsnycklarna',
  One: 'Inloggningsnyckel',
  Many: 'Inloggningsnycklar',
} as const;
const w = passkeyWords;

export const tPasskeyPrompt = {
  // The step-up notice in the layout (and the start of the page /security/confirm).
  stepUp: {
    notice: `Ändringar här kräver att du först bekräftar att det är du, med din ${w.full}. Bekräftelsen gäller i 10 minuter.`,
    noticeOther: 'Har du inte den till hands kan du bekräfta med en återställningskod eller företagets inloggning.',
    // A user without a passkey: what to do, before they fill in anything.
    noticeNone: `Ändringar här kräver att du först bekräftar att det är du med en ${w.full}, och du har ingen ännu. Bekräfta med en länk till din e-post och lägg till en ${w.one}; sedan kommer du tillbaka hit.`,
    button: `Bekräfta med ${w.one}`,
    link: 'Andra sätt att bekräfta',
    linkNone: `Lägg till ${w.one}`,
    // A page's form refused for want of a step-up: the values stay in the form (and in the address).
    notDone:
      'Ändringen är inte gjord: bekräfta först att det är du (se ovan) och skicka sedan igen. Det du skrev finns kvar.',
    notDoneNone: `Ändringen är inte gjord: du behöver först en ${w.full} (se ovan). Det du skrev finns kvar, och du kommer tillbaka hit.`,
    // A confirm page's question (remove, revoke) refused the same way: nothing was typed.
    notDoneHere: 'Ändringen är inte gjord: bekräfta först att det är du (se ovan) och svara sedan igen.',
    notDoneHereNone: `Ändringen är inte gjord: du behöver först en ${w.full} (se ovan); sedan kommer du tillbaka hit.`,
  },
  adding: `Väntar på ${w.the} …`,
  // The ceremony's code could not be fetched (the network went away).
  loadFailed: `Det gick inte att starta ${w.the}. Kontrollera anslutningen och försök igen.`,
  needsJs: `Att lägga till eller använda en ${w.one} kräver att JavaScript är påslaget i webbläsaren.`,
  signIn: `Logga in med ${w.one}`,
};
