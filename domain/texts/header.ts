// The Swedish texts of the lasting header every signed-in page shows (domain/texts/common.ts has the rest).
export const tHeader = {
  /** The landmark of the portal's sections (not "Meny": that is the phone's folded sections). */
  sectionsLabel: 'Huvudnavigering',
  /** The phone's folded sections. */
  menu: 'Meny',
  sections: {
    sims: 'SIM-kort',
    usage: 'Förbrukning',
    // The pages' own names (docs/glossary.md): "Aktivera SIM-kort", "Mitt företag".
    add: 'Aktivera',
    export: 'Export',
    company: 'Mitt företag',
    admin: 'Admin',
  },
  /** After the user's name on the user menu's button, for screen readers. */
  userMenuSuffix: ', användarmeny',
  security: 'Säkerhet',
  logout: 'Logga ut',
  company: 'Företag',
};
