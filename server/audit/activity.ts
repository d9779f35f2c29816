// Long: each audit kind's description in words is read by the page, the API and the CSV from this one table.
// A company's activity: its audit trail (server/audit/trail.ts), newest first, a page at a time by keyset
// (before = the last id seen), filtered by kind; described in words for the page, the API and the CSV file.
import { tCompany } from '#domain/texts/company.ts';
import { tWebhooks } from '#domain/texts/webhooks.ts';
import { tRules } from '#domain/texts/rules.ts';
import { tSecurity } from '#domain/texts/security.ts';
import { tApiKeys } from '#domain/texts/api-keys.ts';
import { tPause } from '#domain/texts/pause.ts';
import { recordAudit } from './trail.ts';
import type { Em } from '#server/db/orm.ts';
import { csvFile, csvText } from '#server/files/csv.ts';
import { stockholmText } from '#server/files/time.ts';
import { auditActor, type Actor as SimActor } from '#server/sims/changes.ts';
import { AUDIT_KINDS, USER_ROLES, type AuditKind, type UserRole } from '#domain/companies/kinds.ts';
import { LIST_PAGE_MAX } from '#domain/zod.ts';
import { type ActivityView, type AuditTrailView, type TrailCompany } from '#domain/companies/owner-schemas.ts';
import { Invalid } from '#domain/errors.ts';
import { tAdmin } from '#domain/texts/admin.ts';
import { tNetwork } from '#domain/texts/network.ts';

const c = tCompany;

/** A bulk run's row in the trail (the SIMs it changed have their own history events). */
export async function auditBulk(
  em: Em,
  actor: SimActor,
  action: 'bulkActivate' | 'bulkDeactivate' | 'bulkPause' | 'bulkResume',
  done: number,
  total: number,
): Promise<void> {
  // Its own unit of work (only this row is flushed), in the caller's transaction when there is one (an
  // Idempotency-Key's: the row goes with the work, or neither).
  const tx = em.fork({ keepTransactionContext: true });
  recordAudit(tx, auditActor(actor), {
    action,
    kind: 'bulk',
    companyId: actor.companyId,
    targetType: 'Company',
    targetId: actor.companyId,
    before: null,
    after: { done, total },
  });
  await tx.flush();
}

type Row = {
  id: number;
  at: Date | string;
  kind: AuditKind | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  acting_company_id: number | null;
  company_id: number | null;
  who_name: string | null;
  who_company_id: number | null;
  company_name: string | null;
  customer_number: string | null;
};

const json = (v: unknown): Record<string, unknown> =>
  ((typeof v === 'string' ? JSON.parse(v) : v) ?? {}) as Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const roleName = (v: unknown) => (USER_ROLES.includes(v as UserRole) ? c.roles[v as UserRole] : '');
const isKind = (k: unknown): k is AuditKind => AUDIT_KINDS.includes(k as AuditKind);

function who(row: Row, after: Record<string, unknown>): string {
  if (row.who_name !== null) {
    // A super admin's change to this company (acting as it, or from the admin screens) is support's.
    const support = row.acting_company_id !== null || row.kind === 'support' || row.who_company_id !== row.company_id;
    return support ? c.actor.support(row.who_name) : row.who_name;
  }
  const key = after.byApiKey as { name?: unknown } | undefined;
  if (key) return c.actor.apiKey(str(key.name));
  return after.by === 'cli' ? c.actor.cli : c.actor.unknown;
}

function securityWhat(action: string, after: Record<string, unknown>): string {
  const a = tSecurity.audit;
  switch (action) {
    case 'signIn':
      return a.signIn(tSecurity.methods[str(after.method)] ?? str(after.method));
    case 'passkeyAdded':
    case 'passkeyRemoved':
      return a[action](str(after.name));
    case 'passkeysReset':
    case 'sessionEnded':
      return a[action](str(after.userName));
    case 'ssoConfigured':
      return a.ssoConfigured(str(after.issuer));
    case 'ssoDomainVerified':
    case 'ssoDomainUnverified':
      return a[action](str(after.domain));
    case 'networkKeyCreated':
    case 'networkKeyRevoked':
      return tNetwork.audit[action](str(after.name));
    case 'stepUpFailed':
    case 'stepUpByEmail':
    case 'recoveryCodeUsed':
    case 'recoveryCodesCreated':
    case 'ssoRemoved':
    case 'passkeysRequired':
    case 'passkeysNotRequired':
      return a[action];
    default:
      return c.actions.other(action);
  }
}

function what(row: Row, before: Record<string, unknown>, after: Record<string, unknown>): string {
  if (row.kind === 'security') return securityWhat(row.action, after);
  const a = c.actions;
  const person = (v: Record<string, unknown>) => `${str(v.name)} (${str(v.email)})`;
  switch (row.action) {
    case 'createUser':
      return `${a.createUser(person(after))}, ${roleName(after.role ?? (after.isCompanyOwner ? 'owner' : 'member'))}`;
    case 'updateUser': {
      const from = before.role ?? (before.isCompanyOwner ? 'owner' : 'member');
      const to = after.role ?? (after.isCompanyOwner ? 'owner' : 'member');
      const text = a.updateUser(person(after));
      return from === to ? text : `${text}: ${a.roleChange(roleName(from), roleName(to))}`;
    }
    case 'removeUser':
      return a.removeUser(person(before));
    case 'simActivated':
    case 'simUpdated':
    case 'simDeactivated':
      return a[row.action](str(after.iccid));
    case 'bulkActivate':
    case 'bulkDeactivate':
      return a[row.action](Number(after.done) || 0, Number(after.total) || 0);
    case 'bulkPause':
    case 'bulkResume':
      return tPause.audit[row.action](Number(after.done) || 0, Number(after.total) || 0);
    case 'simPaused':
    case 'simResumed':
      return tPause.audit[row.action](str(after.iccid));
    case 'createApiKey':
      return tApiKeys.actions.createApiKey(
        str(after.name),
        tApiKeys.scopes[after.scope === 'write' ? 'write' : 'read'],
      );
    case 'revokeApiKey':
      return tApiKeys.actions.revokeApiKey(str(after.name));
    case 'createCompany':
    case 'updateCompany':
    case 'loginAsCompany':
    case 'stopActingAsCompany':
      return a[row.action];
    case 'webhookCreated':
    case 'webhookUpdated':
    case 'webhookDeleted':
    case 'webhookRotated':
    case 'webhookTested':
      return tWebhooks.audit[row.action](str(after.url));
    case 'ruleCreated':
    case 'ruleUpdated':
    case 'ruleDeleted':
      return tRules.audit[row.action](str(after.name));
    default:
      return a.other(row.action);
  }
}

function view(row: Row): ActivityView {
  const before = json(row.before);
  const after = json(row.after);
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    kind: isKind(row.kind) ? row.kind : 'company',
    action: row.action,
    who: who(row, after),
    what: what(row, before, after),
    targetType: row.target_type,
    targetId: row.target_id,
  };
}

/** The trail's columns, who did it and (for the admin's view) whose company it is. */
const TRAIL_SELECT = `select e.id, e.at, e.kind, e.action, e.target_type, e.target_id, e.before, e.after,
    e.acting_company_id, e.company_id, w.name as who_name, w.company_id as who_company_id,
    c.name as company_name, c.customer_number
  from audit_event e left join app_user w on w.id = e.who_id left join company c on c.id = e.company_id`;

/**
 * A page of the trail, newest first (order by id: an index walk of a page, whichever filter): every company's,
 * or one's (companyId), of one kind or all, older than `before`. Each filter has its index (decision 020).
 */
async function trailPage(
  em: Em,
  opts: { companyId?: number; kind?: AuditKind; before?: number; limit?: number },
): Promise<{ rows: Row[]; nextBefore: number | null }> {
  const limit = Math.min(opts.limit ?? LIST_PAGE_MAX, 500);
  const where: string[] = [];
  const params: unknown[] = [];
  if (opts.companyId !== undefined) {
    where.push('e.company_id = ?');
    params.push(opts.companyId);
  }
  if (opts.kind) {
    where.push('e.kind = ?');
    params.push(opts.kind);
  }
  if (opts.before) {
    where.push('e.id < ?');
    params.push(opts.before);
  }
  params.push(limit + 1);
  const rows = await em.execute<Row[]>(
    `${TRAIL_SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by e.id desc limit ?`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextBefore: rows.length > limit && last ? Number(last.id) : null };
}

/** One page of the company's trail, newest first: rows older than `before`, of one kind when given. */
export async function listActivity(
  em: Em,
  companyId: number,
  opts: { kind?: AuditKind; before?: number; limit?: number } = {},
): Promise<{ items: ActivityView[]; nextBefore: number | null }> {
  const { rows, nextBefore } = await trailPage(em, { ...opts, companyId });
  return { items: rows.map(view), nextBefore };
}

/**
 * The super admin's audit (/admin/audit): every company's trail and the staff's own rows, newest first, a page at a
 * time, filtered by company (its id, or its customer number as typed on the page) and by kind. Each row names its
 * company. An unknown company is refused next to the field that named it.
 */
export async function listAuditTrail(
  em: Em,
  opts: { companyId?: number; customerNumber?: string; kind?: AuditKind; before?: number; limit?: number },
): Promise<{ items: AuditTrailView[]; nextBefore: number | null; company: TrailCompany | null }> {
  let company: TrailCompany | null = null;
  if (opts.companyId !== undefined || opts.customerNumber) {
    const [found] = await em.execute<Array<{ id: number; name: string; customer_number: string }>>(
      opts.companyId !== undefined
        ? `select id, name, customer_number from company where id = ?`
        : `select id, name, customer_number from company where customer_number = ?`,
      [opts.companyId ?? opts.customerNumber],
    );
    if (!found)
      throw opts.companyId !== undefined
        ? Invalid.field('companyId', tAdmin.audit.noCompanyId)
        : Invalid.field('customerNumber', tAdmin.audit.noCustomerNumber(opts.customerNumber ?? ''));
    if (opts.companyId !== undefined && opts.customerNumber && found.customer_number !== opts.customerNumber)
      throw Invalid.field('customerNumber', tAdmin.audit.noCustomerNumber(opts.customerNumber));
    company = { id: Number(found.id), name: found.name, customerNumber: found.customer_number };
  }
  const { rows, nextBefore } = await trailPage(em, {
    companyId: company?.id,
    kind: opts.kind,
    before: opts.before,
    limit: opts.limit,
  });
  const items = rows.map((r) => ({
    ...view(r),
    company:
      r.company_id === null
        ? null
        : { id: Number(r.company_id), name: r.company_name ?? '', customerNumber: r.customer_number ?? '' },
  }));
  return { items, nextBefore, company };
}

export const ACTIVITY_CSV_MAX = 100_000;

/**
 * The trail as CSV for Swedish Excel (server/files/csv.ts: UTF-8 with BOM, semicolons, CRLF), newest first, read 500
 * at a time; every text the users wrote behind the formula guard (docs/decisions/008).
 */
export async function activityCsv(
  em: Em,
  companyId: number,
  kind?: AuditKind,
  now = new Date(),
): Promise<{ filename: string; csv: string }> {
  const h = c.csv;
  const records: string[][] = [];
  let before: number | undefined;
  for (let read = 0; read < ACTIVITY_CSV_MAX;) {
    const page = await listActivity(em, companyId, { kind, before, limit: 500 });
    for (const r of page.items)
      records.push([stockholmText(r.at), csvText(r.who), csvText(c.kinds[r.kind]), csvText(r.what)]);
    read += page.items.length;
    if (page.nextBefore === null) break;
    before = page.nextBefore;
  }
  return {
    filename: `Aktivitet_${stockholmText(now.toISOString()).slice(0, 10)}.csv`,
    csv: csvFile([h.when, h.who, h.kind, h.what], records),
  };
}
