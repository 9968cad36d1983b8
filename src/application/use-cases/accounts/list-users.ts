// Rule: every live account is listed, newest first (deleted ones are in no list).
import type { Page } from '../../../domain/page.js';
import type { UserProfile } from '../../../domain/user.js';
import { paginate, type CursorRequest } from '../../pagination.js';
import type { UserRepository } from '../../ports/user-repository.js';

export class ListUsers {
  constructor(private readonly users: UserRepository) {}

  execute(page: CursorRequest): Promise<Page<UserProfile>> {
    return paginate(page, {
      older: (before, limit) => this.users.listOlder(before, limit),
      newer: (after, limit) => this.users.listNewer(after, limit),
      count: () => this.users.count(),
    });
  }
}
