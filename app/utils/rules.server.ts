// What a rule's form offers to choose from (issue 40): the company's tags, the plans, the company's users (the
// first 50 by name: the e-mail's recipients), read through the procedures as the pages read everything.
import type { AppLoadContext } from '@remix-run/node';

export async function ruleFormChoices(trpc: AppLoadContext['trpc']) {
  const [tags, plans, users] = await Promise.all([
    trpc.tags.list(),
    trpc.plans.list(),
    trpc.company.users({ limit: 50 }),
  ]);
  return {
    tags: tags.tags,
    plans: plans.map((p) => ({ id: p.id, code: p.code, description: p.description })),
    users: users.map((u) => ({ id: u.id, name: u.name })),
  };
}
