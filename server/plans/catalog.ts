// Rate plan import: validation of a catalog file and an upsert by code, all or nothing.
import { defined } from '#domain/defined.ts';
import { z } from '#domain/zod.ts';
import type { Em } from '#server/db/orm.ts';
import { RatePlan } from '#server/db/entities.ts';

export const ratePlanInput = z.object({
  code: z.string().trim().min(1).max(50),
  description: z.string().trim().min(1).max(200),
  dataLimit: z.number().int().positive(),
  call: z.boolean(),
  sms: z.boolean(),
  roaming: z.boolean(),
  isLegacy: z.boolean(),
});
export type RatePlanInput = z.infer<typeof ratePlanInput>;

export class CatalogError extends Error {}

/** Parses a catalog; on the first bad entry throws with the entry's number (1-based) and the field. */
export function parseCatalog(json: unknown): RatePlanInput[] {
  if (!Array.isArray(json)) throw new CatalogError('The file must hold a JSON array of rate plans.');
  const codes = new Set<string>();
  return json.map((entry, i) => {
    const r = ratePlanInput.safeParse(entry);
    if (!r.success) {
      const issue = defined(r.error.issues[0], "a refused parse's first issue");
      throw new CatalogError(`Entry ${i + 1}, field "${issue.path.join('.') || '(entry)'}": ${issue.message}`);
    }
    if (codes.has(r.data.code)) throw new CatalogError(`Entry ${i + 1}, field "code": duplicate code ${r.data.code}`);
    codes.add(r.data.code);
    return r.data;
  });
}

export async function upsertPlans(em: Em, plans: RatePlanInput[]): Promise<{ created: number; updated: number }> {
  return em.transactional(async (tx) => {
    let created = 0;
    let updated = 0;
    const existing = new Map(
      (await tx.find(RatePlan, { code: { $in: plans.map((p) => p.code) } })).map((p) => [p.code, p]),
    );
    for (const plan of plans) {
      const found = existing.get(plan.code);
      if (found) {
        tx.assign(found, plan);
        updated++;
      } else {
        tx.create(RatePlan, plan);
        created++;
      }
    }
    await tx.flush();
    return { created, updated };
  });
}
