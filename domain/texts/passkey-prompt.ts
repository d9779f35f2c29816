// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:passkey-prompt (what the layout's step-up notice and a passkey button show before a ceremony starts; the
// rest of the passkey texts, the ceremony's answers included, are in security.ts, loaded with the ceremony)
export const tPasskeyPrompt = {
  // The step-up notice in the layout (and the start of the page /security/confirm).
  stepUp: {
    notice: 'Ändringar här kräver att du bekräftar med din nyckel.',
    button: 'Bekräfta med nyckel',
    link: 'Bekräfta',
  },
  adding: 'Väntar på nyckeln …',
  // The ceremony's code could not be fetched (the network went away).
  loadFailed: 'Det gick inte att starta nyckeln. Kontrollera anslutningen och försök igen.',
  needsJs: 'Att lägga till eller använda en nyckel kräver att JavaScript är påslaget i webbläsaren.',
  signIn: 'Logga in med nyckel',
};
