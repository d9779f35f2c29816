// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:listExport (the /sims list as a CSV or XLSX file)
export const tListExport = {
  label: 'Exportera',
  csv: 'CSV',
  xlsx: 'Excel (XLSX)',
  csvLabel: (q: string) => (q ? `Exportera SIM-kort som matchar ”${q}” som CSV` : 'Exportera alla SIM-kort som CSV'),
  xlsxLabel: (q: string) =>
    q ? `Exportera SIM-kort som matchar ”${q}” som Excel (XLSX)` : 'Exportera alla SIM-kort som Excel (XLSX)',
  badFormat: 'Välj formatet csv eller xlsx.',
  sheet: 'SIM-kort',
  columns: {
    iccid: 'ICCID',
    planCode: 'Abonnemangskod',
    plan: 'Abonnemang',
    dataAmount: 'Datamängd',
    callAndSms: 'Tal & SMS',
    roaming: 'Roaming',
    mark: 'Fakturamärkning',
    note: 'Fakturakommentar',
    activatedAt: 'Aktiverat',
    status: 'Status',
    tags: 'Taggar',
  },
} as const;
