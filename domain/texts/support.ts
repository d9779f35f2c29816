// The Swedish texts that send the user to the support, around its address (SUPPORT_EMAIL) when one is configured;
// without one, the sentence of domain/texts/common.ts stands alone.
/** A sentence with the support's address between `before` and `after`. */
export type AroundAddress = { before: string; after: string };

export const tSupport = {
  register: {
    before: 'Har du inget konto? Kontakta supporten på',
    after: 'för att registrera ett konto.',
  },
  legacy: {
    before: 'Det här SIM-kortet har ett äldre abonnemang och kan inte redigeras här. Kontakta supporten på',
    after: 'för att säga upp det.',
  },
} satisfies Record<string, AroundAddress>;
