// user:create: a user (in a customer's company, made if new, or a super admin in the staff company).
import { defined } from '#domain/defined.ts';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '#server/audit/trail.ts';
import { createCompany, staffCompany } from '#server/companies/companies.ts';
import { normalizeEmail } from '#server/companies/email.ts';
import { createUser, updateUser } from '#server/companies/users.ts';
import { Company } from '#server/db/entities.ts';
import { migrate } from '#server/db/orm.ts';
import { companyFields } from '#domain/companies/schemas.ts';
import { userFields } from '#domain/companies/user-schemas.ts';
import { z } from '#domain/zod.ts';
import { CliError, withOrm } from './common.ts';

/** The refusal of a service (a taken e-mail or customer number) in the CLI's words, naming what was refused. */
function refusal(e: unknown, words: Record<string, string>): never {
  const err = e as { message?: unknown; issues?: unknown; cause?: { issues?: unknown } } | null;
  const issues = (
    Array.isArray(err?.issues) ? err.issues : Array.isArray(err?.cause?.issues) ? err.cause.issues : []
  ) as Array<{ path?: unknown[] }>;
  const first = issues[0]?.path?.[0];
  const field = typeof first === 'string' ? first : '';
  if (field in words) throw new CliError(`${words[field]} (${String(err?.message)})`);
  throw e;
}

// Through the services, as the admin pages: the same rules, and an audit row whose actor is the CLI.
export async function userCreate(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      company: { type: 'string' },
      'customer-number': { type: 'string' },
      'super-admin': { type: 'boolean', default: false },
      owner: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const isSuperAdmin = values['super-admin'] ?? false;
  const isCompanyOwner = values.owner ?? false;
  // Super admins belong to the staff company only (docs/decisions/014), never to a customer's.
  if (isSuperAdmin && (values.company !== undefined || values['customer-number'] !== undefined || isCompanyOwner))
    throw new CliError('--super-admin: a super admin belongs to the staff company; leave out --company and --owner');
  // The services' own field rules, reported by the option that broke them.
  const input = z
    .object({
      email: userFields.email,
      name: userFields.name,
      company: isSuperAdmin ? z.undefined() : companyFields.name,
      customerNumber: companyFields.customerNumber.optional(),
    })
    .safeParse({
      email: values.email,
      name: values.name,
      company: values.company,
      customerNumber: values['customer-number'],
    });
  if (!input.success) {
    const issue = defined(input.error.issues[0], "a refused parse's first issue");
    const option = { email: '--email', name: '--name', company: '--company', customerNumber: '--customer-number' }[
      String(issue.path[0])
    ];
    throw new CliError(`${option ?? 'input'}: ${issue.message}`);
  }
  const { email, name, company: companyName, customerNumber } = input.data;
  return withOrm(async (orm) => {
    await migrate(orm);
    return orm.em.fork().transactional(async (em) => {
      let company: { id: number; name: string } | null =
        companyName === undefined
          ? await staffCompany(em)
          : await em.findOne(Company, { name: companyName, isStaff: false });
      let made = '';
      if (!company) {
        if (companyName === undefined) throw new CliError('No staff company in the database: name one with --company');
        const number =
          customerNumber ?? String(100000 + (await em.count(Company, {})) + 1 + Math.floor(Math.random() * 1000));
        company = await createCompany(em, CLI_ACTOR, {
          name: companyName,
          customerNumber: number,
          invoiceNote: '',
          invoiceInterval: 'monthly',
        }).catch((e) => refusal(e, { customerNumber: `Customer number ${number} is already used` }));
        made = `created company "${companyName}" (customer number ${number}); `;
      }
      const words = { email: `A user with e-mail ${normalizeEmail(email)} already exists` };
      let user = await createUser(em, CLI_ACTOR, { name, email, companyId: company.id }).catch((e) =>
        refusal(e, words),
      );
      // The roles are a change of their own, audited as such (creating a user gives none).
      if (isSuperAdmin || isCompanyOwner) {
        user = await updateUser(em, CLI_ACTOR, {
          id: user.id,
          name: user.name,
          email: user.email,
          isCompanyOwner,
          isSuperAdmin,
        }).catch((e) => refusal(e, words));
      }
      return `${made}created user ${user.email} (id ${user.id}) in "${company.name}"${user.isSuperAdmin ? ' as super admin' : ''}${user.isCompanyOwner ? ' as company owner' : ''}`;
    });
  });
}
