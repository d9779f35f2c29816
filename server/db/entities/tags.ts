// A SIM's tags (issue 40; domain/sims/tags.ts): one row per SIM and tag, keyed by company first as every tenant
// table (docs/scaling.md). Written and read only by plain SQL (server/sims/tags.ts), set-based; the entity is here so
// that the schema diff knows the table.
import { defineEntity, p } from '@mikro-orm/core';

export const SimTagSchema = defineEntity({
  name: 'SimTag',
  tableName: 'sim_tag',
  properties: {
    companyId: p.integer().primary(),
    simId: p.integer().primary(),
    // Code point order everywhere (the answers, the webhooks, the company's list), whatever the server's default.
    tag: p.string().length(40).collation('C').primary(),
  },
  // The SIMs of a tag (the list's filter, a rename, the company's tags) walk this.
  indexes: [
    {
      name: 'sim_tag_tag_index',
      expression: 'create index "sim_tag_tag_index" on "sim_tag" ("company_id", "tag", "sim_id")',
    },
  ],
});
export class SimTag extends SimTagSchema.class {}
SimTagSchema.setClass(SimTag);
