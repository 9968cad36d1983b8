// Rule: an operator's reset link opens its page while it can be used — once, within its hour, unless a newer link
// replaced it — saying whose account it is for and whether it also clears the second factor and passkeys. A link
// used, expired or replaced is `challenge_expired`, as ResetPassword answers it.
import { err, ok, type Result } from '../../../domain/result.js';
import type { ResetLinks, ResetLinkView } from '../../services/reset-links.js';

export class CheckResetLink {
  constructor(private readonly links: ResetLinks) {}

  async execute(token: string): Promise<Result<ResetLinkView, { readonly type: 'challenge_expired' }>> {
    const link = await this.links.find(token);
    return link ? ok(link) : err({ type: 'challenge_expired' });
  }
}
