// The explicit list of migrations, so a bundled or transpiled server never has to glob for them.
// `npm run cli -- migration:create NAME` writes a new file and adds it here.
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122122237_initial } from './Migration20261122122237_initial.js';
import { Migration20261122122837_rate_limit } from './Migration20261122122837_rate_limit.js';
import { Migration20261122135829_sim_list_index } from './Migration20261122135829_sim_list_index.js';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122122237_initial', class: Migration20261122122237_initial },
  { name: 'Migration20261122122837_rate_limit', class: Migration20261122122837_rate_limit },
  { name: 'Migration20261122135829_sim_list_index', class: Migration20261122135829_sim_list_index },
];
