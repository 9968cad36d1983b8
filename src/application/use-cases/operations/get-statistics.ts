// Rule: the home page shows live counts of what the service holds (deleted assets are not counted).
import type { ActivityLog } from '../../ports/activity-log.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface Statistics {
  readonly users: number;
  readonly assets: number;
  readonly activities: number;
}

export class GetStatistics {
  constructor(
    private readonly users: UserRepository,
    private readonly assets: AssetRepository,
    private readonly activities: ActivityLog,
  ) {}

  async execute(): Promise<Statistics> {
    const [users, assets, activities] = await Promise.all([
      this.users.count(),
      this.assets.count({}),
      this.activities.count({}),
    ]);
    return { users, assets, activities };
  }
}
