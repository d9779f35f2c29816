// The Swedish texts of one part of the portal (domain/texts/common.ts has the rest): a page loads only the parts it shows.
// @texts:network (the network's integration keys: the super admin's /admin/network, and the usage feed's door)
export const tNetwork = {
  title: 'Nätverksnycklar',
  intro:
    'En nätverksnyckel låter operatörens mediationssystem skicka förbrukningsposter till portalen (POST /api/network/usage med Authorization: Bearer <nyckel>). Den kan inget annat. Nyckelns namn är posternas källa: en ny nyckel med samma namn fortsätter samma källa.',
  name: 'Namn (källa)',
  nameHint: 'Bokstäver, siffror och . _ : - (högst 100 tecken), till exempel mediation-1.',
  create: 'Skapa nyckel',
  created: (name: string) => `Nätverksnyckeln ${name} är skapad.`,
  shownOnce: 'Kopiera nyckeln nu: den visas bara den här gången.',
  revoke: 'Återkalla',
  revoked: (name: string) => `Nätverksnyckeln ${name} är återkallad.`,
  status: { active: 'Aktiv', revoked: 'Återkallad' },
  errors: {
    name: 'Ange ett namn med bokstäver, siffror och . _ : - (högst 100 tecken).',
    missing: 'Nätverksnyckel saknas eller är ogiltig eller återkallad.',
    onlyUsage: 'En nätverksnyckel kan bara skicka förbrukning (POST /api/network/usage).',
    notFound: 'Nätverksnyckeln finns inte.',
    tooMany: (max: number) => `Det finns redan ${max} aktiva nätverksnycklar. Återkalla en innan du skapar en ny.`,
  },
  audit: {
    networkKeyCreated: (name: string) => `Skapade nätverksnyckeln ${name}`,
    networkKeyRevoked: (name: string) => `Återkallade nätverksnyckeln ${name}`,
  },
};
