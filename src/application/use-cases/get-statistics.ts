// Rule: the home page shows live counts of what the service holds.
import type { UserRepository } from '../ports/user-repository.js';

export interface Statistics {
  readonly users: number;
}

export class GetStatistics {
  constructor(private readonly users: UserRepository) {}

  async execute(): Promise<Statistics> {
    return { users: await this.users.count() };
  }
}
