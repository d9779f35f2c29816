// The texts of the company's tags page, /sims/tags (issue 40): the list, rename (merging allowed) and delete.
import { grouped } from './numbers.ts';

export const tTagsPage = {
  title: 'Taggar',
  manageLink: 'Hantera taggar',
  intro:
    'Företagets taggar, i bokstavsordning. Byt namn på en tagg eller ta bort den: det gäller alla SIM-kort som har den.',
  mergeNote: 'Byter du till ett namn som redan finns slås taggarna ihop: SIM-korten får den befintliga taggen.',
  viewerNote: 'Du kan se taggarna men inte ändra dem.',
  none: 'Inga taggar än. Lägg till taggar på ett SIM-kort eller på flera i listan.',
  listLabel: 'Företagets taggar',
  simsWith: (tag: string) => `Visa SIM-kort med taggen ${tag}`,
  newName: 'Nytt namn',
  newNameFor: (tag: string) => ` för taggen ${tag}`,
  rename: 'Byt namn',
  delete: 'Ta bort',
  forTag: (tag: string) => ` taggen ${tag}`,
  confirmQuestion: (tag: string) => `Ta bort taggen ”${tag}” från alla SIM-kort som har den? Det går inte att ångra.`,
  confirmDelete: 'Ja, ta bort',
  cancel: 'Avbryt',
  sameName: 'Ange ett annat namn än det nuvarande.',
  unknown: 'Taggen finns inte längre. Listan är uppdaterad.',
  result: (title: string, n: number) =>
    n === 0 ? `${title}. Inget SIM-kort ändrades.` : `${title}. På ${grouped(n)} SIM-kort.`,
};
