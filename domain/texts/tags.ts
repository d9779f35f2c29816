// The texts of SIM tags (issue 40).
import { grouped } from './numbers.ts';

export const tTags = {
  empty: 'En tagg kan inte vara tom.',
  tooLong: (max: number) => `En tagg får vara högst ${max} tecken.`,
  control: 'En tagg kan inte innehålla radbrytningar eller styrtecken.',
  tooMany: (max: number) => `Högst ${max} taggar åt gången.`,
  filterMax: (max: number) => `Högst ${max} taggar att filtrera på.`,
  idsMax: (max: number) => `Högst ${grouped(max)} SIM-kort åt gången.`,
  idsOrQ: 'Ange antingen ids (SIM-korten) eller q (alla som matchar en sökning), inte båda.',
  narrowWithQ: 'tag och status avgränsar en sökning (q): ange dem med q, inte med ids.',
  changedTitle: (n: number) => `Taggar ändrade på ${grouped(n)} SIM-kort`,
  renamedTitle: (from: string, to: string) => `Taggen ”${from}” heter nu ”${to}”`,
  deletedTitle: (tag: string) => `Taggen ”${tag}” är borttagen`,
  onSims: (n: number) => `På ${grouped(n)} SIM-kort.`,
  nothingToChange: 'Ange taggar att lägga till (add) eller ta bort (remove).',
  // The screens: the SIM page's tags and /sims' tag filter.
  heading: 'Taggar',
  none: 'Inga taggar än.',
  newTag: 'Ny tagg',
  newTagHint: (max: number) => `Till exempel Göteborg eller Kylbilar, högst ${max} tecken.`,
  add: 'Lägg till',
  remove: (tag: string) => `Ta bort taggen ${tag}`,
  simFull: (max: number) => `SIM-kortet har redan ${max} taggar, det högsta antalet.`,
  filterLabel: 'Tagg',
  filterAll: 'Alla taggar',
  listLabel: 'Taggar',
  listOf: (tag: string) => `SIM-kort med taggen ${tag}`,
  bulkLabel: 'Tagg',
  bulkAdd: 'Lägg till tagg',
  bulkRemove: 'Ta bort tagg',
  // The activation pages' field (comma-separated).
  activationHint: (max: number) =>
    `Valfritt. Skilj taggarna åt med kommatecken, till exempel Göteborg, Kylbilar (högst ${max} tecken per tagg).`,
  bulkActivationHint: (max: number) =>
    `Valfritt. Läggs på alla SIM-kort i listan. Skilj taggarna åt med kommatecken, till exempel Göteborg, Kylbilar (högst ${max} tecken per tagg).`,
};
