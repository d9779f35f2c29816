// The explicit list of migrations, so a bundled or transpiled server never has to glob for them.
// `npm run cli -- migration:create NAME` writes a new file and adds it here.
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122122237_initial } from './Migration20261122122237_initial.ts';
import { Migration20261122122837_rate_limit } from './Migration20261122122837_rate_limit.ts';
import { Migration20261122135829_sim_list_index } from './Migration20261122135829_sim_list_index.ts';
import { Migration20261123074507_roles } from './Migration20261123074507_roles.ts';
import { Migration20261123082600_webhooks } from './Migration20261123082600_webhooks.ts';
import { Migration20261123083000_api_keys } from './Migration20261123083000_api_keys.ts';
import { Migration20261125030000_staff_company } from './Migration20261125030000_staff_company.ts';
import { Migration20261125190000_webhook_fairness } from './Migration20261125190000_webhook_fairness.ts';
import { Migration20261125200000_fleet_scale } from './Migration20261125200000_fleet_scale.ts';
import { Migration20261126110000_history_scale } from './Migration20261126110000_history_scale.ts';
import { Migration20261126120000_sign_in } from './Migration20261126120000_sign_in.ts';
import { Migration20261126140000_idempotency } from './Migration20261126140000_idempotency.ts';
import { Migration20261128070000_sso_domain_proof } from './Migration20261128070000_sso_domain_proof.ts';
import { Migration20261128150000_usage } from './Migration20261128150000_usage.ts';
import { Migration20261128160000_network_keys } from './Migration20261128160000_network_keys.ts';
import { Migration20261128170000_usage_aside_list } from './Migration20261128170000_usage_aside_list.ts';
import { Migration20261128180000_usage_company_day } from './Migration20261128180000_usage_company_day.ts';
import { Migration20261128190000_usage_fleet } from './Migration20261128190000_usage_fleet.ts';
import { Migration20261128200000_usage_home } from './Migration20261128200000_usage_home.ts';
import { Migration20261129000000_sim_tags } from './Migration20261129000000_sim_tags.ts';
import { Migration20261129090000_paused } from './Migration20261129090000_paused.ts';
import { Migration20261129100000_rules } from './Migration20261129100000_rules.ts';
import { Migration20261129110000_rule_watch } from './Migration20261129110000_rule_watch.ts';
import { Migration20261129120000_usage_tag_day } from './Migration20261129120000_usage_tag_day.ts';
import { Migration20261129130000_webhook_due_order } from './Migration20261129130000_webhook_due_order.ts';
import { Migration20261129220000_rule_threshold } from './Migration20261129220000_rule_threshold.ts';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122122237_initial', class: Migration20261122122237_initial },
  { name: 'Migration20261122122837_rate_limit', class: Migration20261122122837_rate_limit },
  { name: 'Migration20261122135829_sim_list_index', class: Migration20261122135829_sim_list_index },
  { name: 'Migration20261123074507_roles', class: Migration20261123074507_roles },
  { name: 'Migration20261123082600_webhooks', class: Migration20261123082600_webhooks },
  { name: 'Migration20261123083000_api_keys', class: Migration20261123083000_api_keys },
  { name: 'Migration20261125030000_staff_company', class: Migration20261125030000_staff_company },
  { name: 'Migration20261125190000_webhook_fairness', class: Migration20261125190000_webhook_fairness },
  { name: 'Migration20261125200000_fleet_scale', class: Migration20261125200000_fleet_scale },
  { name: 'Migration20261126110000_history_scale', class: Migration20261126110000_history_scale },
  { name: 'Migration20261126120000_sign_in', class: Migration20261126120000_sign_in },
  { name: 'Migration20261126140000_idempotency', class: Migration20261126140000_idempotency },
  { name: 'Migration20261128070000_sso_domain_proof', class: Migration20261128070000_sso_domain_proof },
  { name: 'Migration20261128150000_usage', class: Migration20261128150000_usage },
  { name: 'Migration20261128160000_network_keys', class: Migration20261128160000_network_keys },
  { name: 'Migration20261128170000_usage_aside_list', class: Migration20261128170000_usage_aside_list },
  { name: 'Migration20261128180000_usage_company_day', class: Migration20261128180000_usage_company_day },
  { name: 'Migration20261128190000_usage_fleet', class: Migration20261128190000_usage_fleet },
  { name: 'Migration20261128200000_usage_home', class: Migration20261128200000_usage_home },
  { name: 'Migration20261129000000_sim_tags', class: Migration20261129000000_sim_tags },
  { name: 'Migration20261129090000_paused', class: Migration20261129090000_paused },
  { name: 'Migration20261129100000_rules', class: Migration20261129100000_rules },
  { name: 'Migration20261129110000_rule_watch', class: Migration20261129110000_rule_watch },
  { name: 'Migration20261129120000_usage_tag_day', class: Migration20261129120000_usage_tag_day },
  { name: 'Migration20261129130000_webhook_due_order', class: Migration20261129130000_webhook_due_order },
  { name: 'Migration20261129220000_rule_threshold', class: Migration20261129220000_rule_threshold },
];
