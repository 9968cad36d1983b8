// Rule: anyone may ask to sign in with a passkey: they get the options for their browser, with a challenge stored for
// five minutes and no username (the passkey names its person). Each costs a store write before anyone is known, so a
// client address gets a bounded number of them.
import { err, ok, type Result } from '../../../domain/result.js';
import type { CeremonyOptions } from '../../ports/passkey-ceremonies.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { PasskeyAssertions } from '../../services/passkey-assertions.js';

export class StartPasskeySignIn {
  constructor(
    private readonly assertions: PasskeyAssertions,
    private readonly challenges: RateLimit,
  ) {}

  async execute(
    clientAddress: string,
  ): Promise<Result<CeremonyOptions, { readonly type: 'rate_limited'; readonly retryAfterSeconds: number }>> {
    const verdict = await this.challenges.consume(clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    return ok(await this.assertions.signInOptions());
  }
}
